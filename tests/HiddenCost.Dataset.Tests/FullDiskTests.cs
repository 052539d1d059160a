using System.Diagnostics;

namespace HiddenCost.Dataset.Tests;

/// <summary>A dataset on a file system that fills up mid-run: the run is refused clearly, nothing committed is lost.</summary>
[TestClass]
public sealed class FullDiskTests
{
    [TestMethod]
    public void DiskFullWhileWriting_EndsTheRunWithExit2_AndKeepsEarlierRuns()
    {
        if (!OperatingSystem.IsLinux()) Assert.Inconclusive("skipped: needs a Linux tmpfs mount");
        using var fixture = new DatasetFixture();
        var mount = Directory.CreateDirectory(Path.Combine(fixture.Root, "small")).FullName;
        if (Run("mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", mount) != 0)
            Assert.Inconclusive("skipped: cannot mount a small tmpfs here (needs root or CAP_SYS_ADMIN)");
        try
        {
            var dataset = Path.Combine(mount, "dataset");
            var samples = DatasetFixture.RepositorySamples();
            File.Copy(samples[0], Path.Combine(fixture.Inputs, Path.GetFileName(samples[0])));
            Assert.AreEqual(0, Extract(fixture, dataset).Exit);

            // Fill the disk but for 30 KiB, then extract the other samples: their part files cannot all be written.
            var free = new DriveInfo(mount).AvailableFreeSpace;
            using (var filler = File.Create(Path.Combine(mount, "filler")))
                filler.Write(new byte[free - 30 * 1024]); // written, not SetLength: a sparse file takes no room
            for (int i = 1; i < samples.Length; i++) File.Copy(samples[i], Path.Combine(fixture.Inputs, Path.GetFileName(samples[i])));
            var (exit, output, errors) = Extract(fixture, dataset);
            Assert.AreEqual(2, exit, output);
            StringAssert.Contains(errors, "No space left on device; nothing of this run was committed, and earlier runs are untouched");
            Assert.AreEqual(0, Directory.GetFiles(dataset, "_part-*", SearchOption.AllDirectories).Length, "the run's files are removed");

            File.Delete(Path.Combine(mount, "filler"));
            (exit, output, errors) = Extract(fixture, dataset);
            Assert.AreEqual(0, exit, errors);
            StringAssert.StartsWith(output, "4 traces extracted (4 ok, 0 damaged, 0 refused, 0 failed); 1 skipped (already in the dataset);");
        }
        finally
        {
            Run("umount", mount);
        }
    }

    private static (int Exit, string Output, string Errors) Extract(DatasetFixture fixture, string dataset)
    {
        var output = new StringWriter();
        var errors = new StringWriter();
        int exit = Cli.Commands.ExtractCommand.Run([fixture.Inputs], dataset, 1, output, errors);
        return (exit, output.ToString(), errors.ToString());
    }

    private static int Run(string program, params string[] args)
    {
        try
        {
            using var process = Process.Start(new ProcessStartInfo(program, args) { RedirectStandardError = true, RedirectStandardOutput = true })!;
            process.WaitForExit();
            return process.ExitCode;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return -1;
        }
    }
}
