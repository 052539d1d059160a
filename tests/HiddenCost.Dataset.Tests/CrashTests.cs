using System.Diagnostics;
using HiddenCost.Dataset.Extract;
using HiddenCost.Dataset.Schema;
using HiddenCost.Dataset.Storage;

namespace HiddenCost.Dataset.Tests;

/// <summary>Runs ended at the worst moments: the dataset shows only committed runs, and the next run completes it.</summary>
[TestClass]
public sealed class CrashTests
{
    [TestMethod]
    public void RunEndedBetweenItsPartFilesAndItsManifest_ShowsNothing_AndTheNextRunCompletesTheDataset()
    {
        using var fixture = new DatasetFixture();
        fixture.AddVariants(3, "first");
        Assert.AreEqual(0, fixture.Extract(Path.Combine(fixture.Inputs, "first")).Exit);
        fixture.AddVariants(8, "second");

        // The process "dies" once every part is written and before the manifest: its files stay as it left them.
        var stash = Directory.CreateDirectory(Path.Combine(fixture.Root, "stash")).FullName;
        var crashing = new Extractor(DatasetFolder.Open(fixture.Dataset), 2, null, _ => { })
        {
            BeforeCommit = () =>
            {
                foreach (var hidden in fixture.HiddenParquet())
                    File.Copy(hidden, Path.Combine(stash, Path.GetRelativePath(fixture.Dataset, hidden).Replace('/', '!')));
                throw new SimulatedCrash();
            },
        };
        Assert.ThrowsExactly<SimulatedCrash>(() => crashing.Run(TraceInputs.Expand([fixture.Inputs], fixture.Dataset)));
        foreach (var left in Directory.GetFiles(stash))
            File.Copy(left, Path.Combine(fixture.Dataset, Path.GetFileName(left).Replace('!', '/')));
        Assert.AreEqual(DatasetSchema.All.Count, fixture.HiddenParquet().Count, "the crashed run's parts are left behind");

        // Readers see the first run only: our views, and engines that read the folders (hidden names).
        Assert.AreEqual(3, fixture.Scalar("SELECT count(*) FROM traces"));
        Assert.AreEqual(DatasetSchema.All.Count, fixture.VisibleParquet().Count);

        var (exit, output, errors) = fixture.Extract();
        Assert.AreEqual(0, exit, errors);
        StringAssert.StartsWith(output, "8 traces extracted (8 ok,");
        Assert.AreEqual(0, fixture.HiddenParquet().Count, "leftovers removed");
        Assert.AreEqual(11, fixture.Scalar("SELECT count(*) FROM traces"));
        Assert.AreEqual(11, fixture.Scalar("SELECT count(DISTINCT trace_id) FROM traces"));
        Assert.AreEqual(0, fixture.Scalar("SELECT count(*) FROM (SELECT trace_id FROM syscall_hook_overhead GROUP BY trace_id, culprit_module, process, pid, syscall HAVING count(*) > 1)"));
    }

    [TestMethod]
    public void RunEndedAfterItsManifest_BeforeRenaming_IsReadAndThenRolledForward()
    {
        using var fixture = new DatasetFixture();
        fixture.AddVariants(4);
        Assert.AreEqual(0, fixture.Extract().Exit);
        // As if killed right after the commit: every file still under its hidden name.
        foreach (var visible in fixture.VisibleParquet())
            File.Move(visible, Path.Combine(Path.GetDirectoryName(visible)!, "_" + Path.GetFileName(visible)));
        Assert.AreEqual(4, fixture.Scalar("SELECT count(*) FROM traces"), "committed: our views read it");

        var (exit, output, _) = fixture.Extract();
        Assert.AreEqual(0, exit);
        StringAssert.StartsWith(output, "0 traces extracted");
        Assert.AreEqual(DatasetSchema.All.Count, fixture.VisibleParquet().Count, "the next run gave the files their names");
        Assert.AreEqual(0, fixture.HiddenParquet().Count);
        Assert.AreEqual(4, fixture.Scalar("SELECT count(*) FROM traces"));
    }

    [TestMethod]
    public void ExtractKilledWithSigkill_ThenRunAgain_HoldsEveryTraceExactlyOnce()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("skipped: SIGKILL is a Unix signal");
        using var fixture = new DatasetFixture();
        fixture.AddVariants(3, "first");
        Assert.AreEqual(0, fixture.Extract(Path.Combine(fixture.Inputs, "first")).Exit);
        fixture.AddVariants(60, "more");

        var start = new ProcessStartInfo("dotnet") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var a in new[] { Path.Combine(AppContext.BaseDirectory, "hiddencost.dll"), "extract", fixture.Inputs, "--to", fixture.Dataset, "-j", "1" })
            start.ArgumentList.Add(a);
        using var child = Process.Start(start)!;
        // Killed mid-run: once it has analysed some traces (it holds the lock from its start; a trace takes ~50 ms).
        var lockTaken = Stopwatch.StartNew();
        while (!child.HasExited && lockTaken.Elapsed < TimeSpan.FromSeconds(60) && !LockHeld(fixture.Dataset)) Thread.Sleep(20);
        Thread.Sleep(1000);
        Assert.IsFalse(child.HasExited, $"the run ended before it could be killed: {child.StandardOutput.ReadToEnd()}");
        Process.Start("kill", ["-KILL", child.Id.ToString()])!.WaitForExit();
        child.WaitForExit();
        Assert.AreEqual(137, child.ExitCode, "ended by SIGKILL");

        Assert.AreEqual(1, Directory.GetFiles(Path.Combine(fixture.Dataset, "_runs"), "*.json").Length, "the killed run never committed");
        Assert.AreEqual(3, fixture.Scalar("SELECT count(*) FROM traces"), "nothing of the killed run shows, nothing earlier is lost");

        var (exit, output, errors) = fixture.Extract();
        Assert.AreEqual(0, exit, errors);
        StringAssert.StartsWith(output, "60 traces extracted (60 ok,");
        Assert.AreEqual(63, fixture.Scalar("SELECT count(*) FROM traces"));
        Assert.AreEqual(63, fixture.Scalar("SELECT count(DISTINCT trace_id) FROM traces"));
        Assert.AreEqual(63 * 4, fixture.Scalar("SELECT count(*) FROM trace_readiness"));
        Assert.AreEqual(0, fixture.HiddenParquet().Count);
    }

    /// <summary>Whether a process holds the dataset's lock (the child's: this process holds none).</summary>
    private static bool LockHeld(string dataset)
    {
        var path = Path.Combine(dataset, DatasetFolder.LockName);
        if (!File.Exists(path)) return false;
        try
        {
            using var probe = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
            return false;
        }
        catch (IOException)
        {
            return true;
        }
    }

    private sealed class SimulatedCrash : Exception;
}

[TestClass]
public sealed class InterruptTests
{
    [TestMethod]
    public void CtrlC_MidRun_CommitsNothing_AndExits130()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("skipped: SIGINT is a Unix signal");
        using var fixture = new DatasetFixture();
        fixture.AddVariants(40);
        var start = new ProcessStartInfo("dotnet") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var a in new[] { Path.Combine(AppContext.BaseDirectory, "hiddencost.dll"), "extract", fixture.Inputs, "--to", fixture.Dataset, "-j", "1" })
            start.ArgumentList.Add(a);
        using var child = Process.Start(start)!;
        var waited = Stopwatch.StartNew();
        while (!child.HasExited && waited.Elapsed < TimeSpan.FromSeconds(60) && !File.Exists(Path.Combine(fixture.Dataset, DatasetFolder.LockName))) Thread.Sleep(20);
        Thread.Sleep(1000);
        Assert.IsFalse(child.HasExited, "the run ended before it could be interrupted");
        Process.Start("kill", ["-INT", child.Id.ToString()])!.WaitForExit();
        var errors = child.StandardError.ReadToEnd();
        child.WaitForExit();
        Assert.AreEqual(130, child.ExitCode, errors);
        StringAssert.Contains(errors, "interrupted: nothing of this run was committed");
        Assert.IsFalse(Directory.Exists(Path.Combine(fixture.Dataset, "_runs")) && Directory.GetFiles(Path.Combine(fixture.Dataset, "_runs")).Length > 0);
        Assert.AreEqual(0, Directory.GetFiles(fixture.Dataset, "*.parquet", SearchOption.AllDirectories).Length, "its part files are removed");
    }
}
