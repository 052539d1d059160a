using HiddenCost.Analysis.Tables;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Analysis.Tables.CpuByFunction;
using HiddenCost.Analysis.Tables.Symbols;
using HiddenCost.Etl;
using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>The Symbols and CPU by Function tables: on the real PerfView trace without symbols, and with a synthetic PDB on the path.</summary>
[TestClass]
public sealed class SymbolTablesTests
{
    [TestMethod]
    public void Symbols_lists_the_traces_pdbs_not_found_where_a_table_needed_them_without_a_symbol_path()
    {
        var table = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip")).Table(SymbolsAnalysis.Definition);
        Assert.AreEqual(677, table.Rows.Count);
        // Needed: the images CPU by Function samples, Spin-Wait's frames and Syscall Hook's Top Stack ask to name.
        Assert.AreEqual(126, table.Rows.Count(r => r.Status == "not found"));
        Assert.AreEqual(551, table.Rows.Count(r => r.Status == "not needed"));
        var clr = table.Rows.Single(r => r.Pdb == "clr.pdb" && r.Guid == new Guid("19f24eba-4636-42ec-9087-73be8eca8a4d"));
        Assert.AreEqual(("clr.dll", 2L, "not found", ""), (clr.Module, clr.Age, clr.Status, clr.Source));
        Assert.IsNull(clr.Publics);
        var acpi = table.Rows.Single(r => r.Module == "ACPI.sys");
        Assert.AreEqual(("acpi.pdb", new Guid("53b90d8e-4093-46b4-b635-bcd90489960a"), 2L, "not needed"), (acpi.Pdb, acpi.Guid, acpi.Age, acpi.Status));
        Assert.AreEqual("symbols.no-symbol-path", table.Notes.Single().Code);
    }

    [TestMethod]
    public void Symbols_alone_needs_no_pdb()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"), new[] { TableIds.Symbols });
        var table = result.Table(SymbolsAnalysis.Definition);
        Assert.AreEqual(677, table.Rows.Count);
        Assert.IsTrue(table.Rows.All(r => r.Status == "not needed"));
    }

    [TestMethod]
    public void Cpu_by_function_names_managed_leaf_frames_from_clr_method_events()
    {
        var table = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip")).Table(CpuByFunctionTables.Definition);
        Assert.AreEqual(79528, table.Rows.Sum(r => r.Samples));
        var top = table.Rows.Take(3).Select(r => (r.Process, r.Pid, r.Module, r.Function, r.Samples, r.CpuMs)).ToArray();
        CollectionAssert.AreEqual(new[]
        {
            ("Idle", (long?)0, "ntoskrnl.exe", "ntoskrnl.exe+0xA6552", 72805L, 72805.0),
            ("Test.x64.exe", (long?)3676, "", "System.DateTime.GetDatePart", 1856L, 1856.0),
            ("Test.x64.exe", (long?)3676, "", "System.TimeZoneInfo.TransitionTimeToDateTime", 566L, 566.0),
        }, top);
        Assert.AreEqual(100.0 * 1856 / 79528, table.Rows[1].SharePercent, 1e-9);
        Assert.AreEqual(100.0, table.Rows.Sum(r => r.SharePercent), 1e-6);
        Assert.AreEqual("cpu-by-function.no-symbols", table.Notes.Single().Code);
    }

    [TestMethod]
    public void Symbols_shows_the_kernels_pdb_loaded_with_its_source_publics_and_frames()
    {
        WithStore(matching: true, (resolver, store, key, named) =>
        {
            var row = named.Table(SymbolsAnalysis.Definition).Rows.Single(r => r.Pdb.Equals(key.PdbName, StringComparison.OrdinalIgnoreCase));
            Assert.AreEqual("loaded", row.Status);
            Assert.AreEqual(Path.Combine(store, key.StorePath), row.Source);
            Assert.AreEqual(resolver.Statuses.Single(s => s.Pdb.Equals(key)).Publics, row.Publics);
            Assert.IsTrue(row.Publics > 0);
            Assert.AreEqual(resolver.Statuses.Single(s => s.Pdb.Equals(key)).FramesResolved, row.FramesResolved);
            Assert.IsTrue(row.FramesResolved > 0, "the syscall rows were named");
            Assert.IsNotNull(row.LoadMs);
        });
    }

    [TestMethod]
    public void Symbols_reports_a_pdb_of_another_age_as_mismatched()
    {
        WithStore(matching: false, (resolver, store, key, named) =>
        {
            var row = named.Table(SymbolsAnalysis.Definition).Rows.Single(r => r.Pdb.Equals(key.PdbName, StringComparison.OrdinalIgnoreCase));
            Assert.AreEqual("mismatched", row.Status);
            Assert.IsNull(row.Publics);
            Assert.AreEqual("symbols.missing", named.Table(SymbolsAnalysis.Definition).Notes.Single().Code);
        });
    }

    private static void WithStore(bool matching, Action<SymbolResolver, string, PdbKey, AnalysisResult> check)
    {
        var scenario = SyscallHookStorm.Generate();
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-symbols-table-{Guid.NewGuid():N}.etl");
        scenario.Save(path);
        var kernel = SyscallHookSymbolsTests.KernelIdentity(scenario.Bytes);
        var key = new PdbKey(kernel.PdbName, kernel.Signature, kernel.Age);
        var store = Path.Combine(Path.GetTempPath(), $"hiddencost-store-{Guid.NewGuid():N}");
        Directory.CreateDirectory(store);
        var publics = scenario.Truth.Rows.Select(r => (r.Syscall, (uint)r.SyscallRva)).Distinct().ToList();
        if (matching) Directory.CreateDirectory(Path.Combine(store, key.PdbName, key.Signature));
        // A mismatched PDB: the right name, flat in the folder, with the age after the image's.
        File.WriteAllBytes(matching ? Path.Combine(store, key.StorePath) : Path.Combine(store, key.PdbName),
            SyntheticPdbWriter.Write(key.Guid, matching ? key.Age : key.Age + 1, publics));
        try
        {
            using var resolver = new SymbolResolver(new SymbolResolverOptions { Path = SymbolPath.Parse(matching ? $"srv*{store}" : store, _ => null) });
            check(resolver, store, key, TraceAnalyzer.Analyze(new TraceFileName(path, path), symbols: resolver));
        }
        finally
        {
            File.Delete(path);
            Directory.Delete(store, recursive: true);
        }
    }
}
