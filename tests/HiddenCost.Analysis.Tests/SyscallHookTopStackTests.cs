using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Etl;
using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Syscall Hook Overhead's Top Stack: on the synthetic syscall storm, each culprit row shows the hook stack its samples
/// had most often, leaf first, kernel frames named from a synthetic PDB stamped with the scenario kernel's identity
/// (its publics at the synthetic kernel's functions), other frames <c>module+0xRVA</c>.
/// </summary>
[TestClass]
public sealed class SyscallHookTopStackTests
{
    private static readonly (string Name, uint Rva)[] KernelPublics =
    [
        ("KiSystemServiceCopyEnd", (uint)KernelFunctions.KiSystemServiceCopyEndRva),
        ("KiSystemServiceExit", (uint)KernelFunctions.KiSystemServiceExitRva),
        ("PerfInfoLogSysCallEntry", (uint)KernelFunctions.PerfInfoLogSysCallEntryRva),
        ("EtwpLogKernelEvent", (uint)KernelFunctions.EtwpLogKernelEventRva),
        ("NtDelayExecution", (uint)KernelFunctions.NtDelayExecutionRva),
        ("NtYieldExecution", (uint)KernelFunctions.NtYieldExecutionRva),
        ("KeDelayExecutionThread", (uint)KernelFunctions.KeDelayExecutionThreadRva),
        ("KiSwapThread", (uint)KernelFunctions.KiSwapThreadRva),
        ("memset", (uint)KernelFunctions.MemsetRva),
    ];

    [TestMethod]
    public void Top_stack_is_the_hook_stack_sampled_most_often_leaf_first_with_kernel_names_from_the_pdb()
    {
        var scenario = SyscallHookStorm.Generate();
        using var fixture = new SyntheticPdbStore(scenario.Bytes, "syscall-storm").Add("ntoskrnl.exe", KernelPublics);
        using var resolver = fixture.Resolver();
        var table = TraceAnalyzer.Analyze(new TraceFileName(fixture.TracePath, fixture.TracePath), symbols: resolver).Table(SyscallHookTables.Overhead);
        var state = fixture.State;
        Assert.IsTrue(scenario.Truth.Rows.Count >= 2, "the scenario has syscall rows");
        foreach (var truth in scenario.Truth.Rows)
        {
            Assert.IsTrue(truth.TopHookStackSamples > truth.RunnerUpHookStackSamples, $"{truth.Process} {truth.Syscall}: one hook stack leads ({truth.TopHookStackSamples} vs {truth.RunnerUpHookStackSamples})");
            var row = table.Rows.Single(r => r.Process == truth.Process && r.Syscall == "ntoskrnl.exe!" + truth.Syscall && r.CulpritModule == truth.CulpritModule);
            var expected = Expected(state, truth.Pid, truth.LastNs, truth.TopHookStack);
            Assert.AreEqual(expected, row.TopStack, $"{truth.Process} {truth.Syscall}");
            StringAssert.Contains(row.TopStack, "ntoskrnl.exe!EtwpLogKernelEvent ← ntoskrnl.exe!PerfInfoLogSysCallEntry ← ntoskrnl.exe!KiSystemServiceExit ← ntdll.dll+0x");
            Assert.AreEqual(StackText.MaxFrames, row.TopStack!.Split(StackText.Separator).Length, "the storm's hook stacks are 13 frames deep: the column keeps 12");
        }
        var missing = table.Notes.Single(n => n.Code == "symbols.missing").Text;
        foreach (var image in new[] { "ntdll.dll", "KernelBase.dll", "tedrdrv.sys" })
        {
            StringAssert.Contains(missing, $"{image} needs {fixture.KeyOf(image).StorePath}, not found", image);
        }
        Assert.IsFalse(missing.Contains("ntoskrnl.exe"), missing);
        StringAssert.StartsWith(missing, "Syscall names and Top Stack frames stay module+0xRVA where their PDB did not load: ");
    }

    [TestMethod]
    public void Top_stack_names_frames_module_plus_rva_without_symbols()
    {
        var scenario = SyscallHookStorm.Generate();
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-topstack-{Guid.NewGuid():N}.etl");
        scenario.Save(path);
        try
        {
            var table = TraceAnalyzer.Analyze(path).Table(SyscallHookTables.Overhead);
            foreach (var truth in scenario.Truth.Rows)
            {
                var row = table.Rows.Single(r => r.Process == truth.Process && r.Syscall == truth.UnresolvedSyscall && r.CulpritModule == truth.CulpritModule);
                StringAssert.StartsWith(row.TopStack, "tedrdrv.sys+0x");
                StringAssert.Contains(row.TopStack, $" ← ntoskrnl.exe+0x{KernelFunctions.EtwpLogKernelEventRva + 0x1A6:X} ← ntoskrnl.exe+0x{KernelFunctions.PerfInfoLogSysCallEntryRva + 0x35:X} ← ");
                Assert.IsFalse(row.TopStack!.Contains('!'), row.TopStack);
            }
        }
        finally
        {
            File.Delete(path);
        }
    }

    /// <summary>The column's text computed apart: nearest public at or below each kernel frame, else the trace's module+0xRVA.</summary>
    private static string Expected(TraceState state, int pid, long t, IReadOnlyList<ulong> frames)
    {
        var names = new List<string>();
        foreach (var address in frames)
        {
            var frame = state.ResolveFrame(pid, address, t);
            string name = frame.Image?.FileName == "ntoskrnl.exe"
                ? "ntoskrnl.exe!" + KernelPublics.Where(p => p.Rva <= frame.Rva).MaxBy(p => p.Rva).Name
                : frame.Name;
            if (names.Count == 0 || names[^1] != name) names.Add(name);
        }
        return string.Join(" ← ", names.Take(12));
    }
}
