using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Etl;
using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Syscall Hook Overhead names each syscall from the kernel's PDB: the synthetic syscall storm (its kernel has a
/// synthetic identity) with a synthetic PDB of that identity whose publics sit at the scenario's syscall RVAs, in a
/// store on the symbol path.
/// </summary>
[TestClass]
public sealed class SyscallHookSymbolsTests
{
    [TestMethod]
    public void Syscall_column_names_the_service_from_the_kernels_pdb()
    {
        var scenario = SyscallHookStorm.Generate();
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-syscall-symbols-{Guid.NewGuid():N}.etl");
        scenario.Save(path);
        var kernel = KernelIdentity(scenario.Bytes);
        var key = new PdbKey(kernel.PdbName, kernel.Signature, kernel.Age);
        var store = Path.Combine(Path.GetTempPath(), $"hiddencost-store-{Guid.NewGuid():N}");
        Directory.CreateDirectory(Path.Combine(store, key.PdbName, key.Signature));
        var publics = scenario.Truth.Rows.Select(r => (r.Syscall, (uint)r.SyscallRva)).Distinct().ToList();
        File.WriteAllBytes(Path.Combine(store, key.StorePath), SyntheticPdbWriter.Write(key.Guid, key.Age, publics));
        try
        {
            using var resolver = new SymbolResolver(new SymbolResolverOptions { Path = SymbolPath.Parse($"srv*{store}", _ => null) });
            var named = TraceAnalyzer.Analyze(new TraceFileName(path, path), symbols: resolver).Table(SyscallHookTables.Overhead);
            var plain = TraceAnalyzer.Analyze(path).Table(SyscallHookTables.Overhead);
            Assert.AreEqual(plain.Rows.Count, named.Rows.Count);
            Assert.IsTrue(scenario.Truth.Rows.Count >= 2, "the scenario has syscall rows");
            foreach (var truth in scenario.Truth.Rows)
            {
                Assert.AreEqual(1, plain.Rows.Count(r => r.Process == truth.Process && r.Syscall == truth.UnresolvedSyscall && r.CulpritModule is not null), truth.UnresolvedSyscall);
                Assert.AreEqual(1, named.Rows.Count(r => r.Process == truth.Process && r.Syscall == "ntoskrnl.exe!" + truth.Syscall && r.CulpritModule is not null),
                    $"{truth.Process} {truth.Syscall}: {string.Join(", ", named.Rows.Select(r => r.Syscall).Distinct())}");
            }
            // The Top Stack column and CPU by Function ask for the user images' PDBs too (not in the store): the note names those, never the kernel's.
            Assert.IsFalse(named.Notes.Any(n => n.Code == "symbols.missing" && n.Text.Contains("ntoskrnl.exe")), "the kernel's PDB loaded");
            Assert.AreEqual(PdbState.Loaded, resolver.Statuses.Single(s => s.ImageFileName == "ntoskrnl.exe").State);
        }
        finally
        {
            File.Delete(path);
            Directory.Delete(store, recursive: true);
        }
    }

    /// <summary>The PDB identity the synthetic trace gives its kernel (its DbgID_RSDS record).</summary>
    internal static PdbIdentity KernelIdentity(byte[] trace)
    {
        using var reader = EtlReader.Open(trace, "syscall-storm.etl");
        var state = new TraceState();
        foreach (var e in reader.ReadEvents()) state.Observe(e);
        return state.ImagesOf(0).Single(i => i.FileName == "ntoskrnl.exe").Pdb!.Value;
    }
}
