using System.Text.RegularExpressions;
using HiddenCost.Analysis;
using HiddenCost.Dataset.Schema;

namespace HiddenCost.Dataset.Tests;

[TestClass]
public sealed class NamingTests
{
    [TestMethod]
    [DataRow("Hook CPU (ms)", false, "hook_cpu_ms")]
    [DataRow("Hook Overhead per Syscall (µs)", false, "hook_overhead_per_syscall_us")]
    [DataRow("Spin Share (%)", false, "spin_share_pct")]
    [DataRow("Inflation (×)", false, "inflation_x")]
    [DataRow("Spin-Wait Cost per Lock", false, "spin_wait_cost_per_lock")]
    [DataRow("Trace Start (UTC)", false, "trace_start_utc")]
    [DataRow("OpenMP Runtime CPU (ms)", false, "openmp_runtime_cpu_ms")]
    [DataRow("Start", true, "start_ns")]
    [DataRow("Duration", true, "duration_ns")]
    [DataRow("Demand-Zero Faults", false, "demand_zero_faults")]
    public void NameRule_DerivesTheDocumentedNames(string model, bool nanoseconds, string expected) =>
        Assert.AreEqual(expected, NameRule.Column(model, nanoseconds));

    [TestMethod]
    public void EveryTableAndColumnName_IsSnakeCaseAndUnique()
    {
        var pattern = new Regex("^[a-z][a-z0-9]*(_[a-z0-9]+)*$");
        Assert.AreEqual(DatasetSchema.All.Count, DatasetSchema.All.Select(t => t.Name).Distinct().Count());
        Assert.AreEqual(2 + TableCatalog.All.Count, DatasetSchema.All.Count); // traces, notes and every table of the model
        foreach (var table in DatasetSchema.All)
        {
            Assert.IsTrue(pattern.IsMatch(table.Name), table.Name);
            Assert.AreEqual(table.Columns.Count, table.Columns.Select(c => c.Name).Distinct().Count(), $"{table.Name}: two columns share a name");
            CollectionAssert.AreEqual(new[] { "trace_id", "run_id" }, table.Columns.Take(2).Select(c => c.Name).ToArray(), table.Name);
            foreach (var column in table.Columns)
            {
                Assert.IsTrue(pattern.IsMatch(column.Name), $"{table.Name}.{column.Name}");
                if (column.Unit == "ns") Assert.IsTrue(column.Name.EndsWith("_ns", StringComparison.Ordinal), $"{table.Name}.{column.Name}");
            }
        }
    }

    [TestMethod]
    public void ModelColumns_MapToTheDocumentedTypes()
    {
        var hooks = DatasetSchema.Find("syscall_hook_overhead")!;
        Assert.AreEqual(DatasetType.Double, hooks.Columns[hooks.IndexOf("hook_cpu_ms")].Type);
        Assert.AreEqual(DatasetType.Int64, hooks.Columns[hooks.IndexOf("syscalls")].Type);
        Assert.AreEqual(DatasetType.Int64, hooks.Columns[hooks.IndexOf("first_ns")].Type);
        Assert.AreEqual(DatasetType.Text, hooks.Columns[hooks.IndexOf("culprit_module")].Type);
        var readiness = DatasetSchema.Find("trace_readiness")!;
        Assert.AreEqual(DatasetType.Boolean, readiness.Columns[readiness.IndexOf("ready")].Type);
        Assert.AreEqual(DatasetType.TimestampUtc, DatasetSchema.Traces.Columns[DatasetSchema.Traces.IndexOf("start_utc")].Type);
        Assert.AreEqual("Hook CPU (ms)", hooks.Columns[hooks.IndexOf("hook_cpu_ms")].SourceName);
    }

    [TestMethod]
    public void SchemaDocument_IsTheCommittedOne()
    {
        var path = Path.Combine(TestSupport.SharedFolder.RepositoryRoot, "plugin", "HiddenCost.Dataset", SchemaDocument.FileName);
        var generated = SchemaDocument.Markdown();
        if (Environment.GetEnvironmentVariable("HIDDENCOST_UPDATE_SCHEMA") == "1") File.WriteAllText(path, generated);
        Assert.IsTrue(File.Exists(path), $"{path} is missing: run this test with HIDDENCOST_UPDATE_SCHEMA=1");
        Assert.AreEqual(generated, File.ReadAllText(path).ReplaceLineEndings("\n"),
            $"{path} differs from the table model: run this test with HIDDENCOST_UPDATE_SCHEMA=1 and commit the file");
    }
}
