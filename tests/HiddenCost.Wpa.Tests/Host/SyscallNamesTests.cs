using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>
/// WPA names native frames as the CLI does: the synthetic syscall storm opened through the processing source, with a
/// symbol path (the source's own environment, never the process's) holding a synthetic kernel PDB stamped with the
/// trace's synthetic kernel identity, shows each syscall as ntoskrnl.exe!Function in the Syscall Hook Overhead table.
/// </summary>
[TestClass]
public sealed class SyscallNamesTests
{
    private const string Table = "Syscall Hook Overhead";

    [TestMethod]
    public void Syscall_column_names_the_service_from_the_kernel_pdb_on_the_symbol_path()
    {
        var scenario = SyscallHookStorm.Generate();
        using var store = new SyntheticPdbStore(scenario.Bytes, "syscall-storm")
            .Add("ntoskrnl.exe", scenario.Truth.Rows.Select(r => (r.Syscall, (uint)r.SyscallRva)).Distinct().ToList());

        var table = HostedTrace.Open(store.TracePath, [Table], new Dictionary<string, string> { ["_NT_SYMBOL_PATH"] = $"srv*{store.Store}" })[Table];

        Assert.IsTrue(scenario.Truth.Rows.Count >= 2, "the scenario has syscall rows");
        var rows = HookedRows(table);
        foreach (var truth in scenario.Truth.Rows)
            Assert.AreEqual(1, rows.Count(r => r == $"{truth.Process} ntoskrnl.exe!{truth.Syscall}"), $"{truth.Process} {truth.Syscall}: {string.Join(", ", rows)}");
    }

    [TestMethod]
    public void Syscall_column_shows_the_kernel_offset_without_a_symbol_path()
    {
        var scenario = SyscallHookStorm.Generate();
        using var store = new SyntheticPdbStore(scenario.Bytes, "syscall-storm");

        var table = HostedTrace.Open(store.TracePath, [Table], new Dictionary<string, string>())[Table];

        Assert.IsTrue(scenario.Truth.Rows.Count >= 2, "the scenario has syscall rows");
        var rows = HookedRows(table);
        foreach (var truth in scenario.Truth.Rows)
        {
            StringAssert.StartsWith(truth.UnresolvedSyscall, "ntoskrnl.exe+0x");
            Assert.AreEqual(1, rows.Count(r => r == $"{truth.Process} {truth.UnresolvedSyscall}"), $"{truth.Process} {truth.UnresolvedSyscall}: {string.Join(", ", rows)}");
        }
        Assert.IsFalse(rows.Any(r => r.Contains('!')), "no syscall is named without a PDB");
    }

    /// <summary>The rows that name a culprit module, each as "Process Syscall": the cells WPA shows.</summary>
    private static List<string> HookedRows(RecordingTableBuilder table) =>
        Enumerable.Range(0, table.RowCount!.Value)
            .Where(row => !string.IsNullOrEmpty(table.Cell(row, "Culprit Module") as string))
            .Select(row => $"{table.Cell(row, "Process")} {table.Cell(row, "Syscall")}").ToList();
}
