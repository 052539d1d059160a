using System.Diagnostics;
using System.Runtime.Versioning;

namespace HiddenCost.Samples.NotifyStorm;

/// <summary>
/// A watcher process arms ReadDirectoryChangesW (FileSystemWatcher) on a directory with a buffer of --buffer-kb,
/// and a second process (this program in the "churn" role) creates and deletes files there. Every completed
/// notification makes the kernel allocate and zero a buffer of that size in the context of the process that
/// changed the file, so the churning process slows down with a 2 MiB buffer and not with a 16 KiB one.
/// </summary>
internal static class Program
{
    private const string Usage = """
        NotifyStorm: a FileSystemWatcher with a 16 KiB or 2 MiB buffer while another process creates and deletes files.

        Usage: NotifyStorm [--buffer-kb K] [--seconds S] [--files N] [--dir PATH]
               NotifyStorm churn --dir PATH [--seconds S] [--files N]     (the second process; started for you)
          --buffer-kb  watcher buffer, KiB (default 2048; compare with 16)
          --seconds    how long the churn runs (default 10)
          --files      files created and then deleted per round (default 200)
          --dir        directory to watch (default: a new folder under %TEMP%, removed afterwards)

        Record:  wpr -start MultiProfile.wprp!DirNotify -filemode   (then run this, then)   wpr -stop notifystorm.etl
        """;

    private static int Main(string[] args) => SampleHost.Run("NotifyStorm", Usage, args,
        o => OperatingSystem.IsWindows() ? (o.Positional.FirstOrDefault() == "churn" ? Churn(o) : Watch(o)) : SampleHost.NotWindows);

    [SupportedOSPlatform("windows")]
    private static int Watch(SampleOptions o)
    {
        o.RejectUnknown("buffer-kb", "seconds", "files", "dir");
        int bufferKb = o.Int("buffer-kb", 2048, 4, 64 * 1024);
        int seconds = o.Int("seconds", 10, 1, 3600);
        int files = o.Int("files", 200, 1, 100_000);
        bool ownDir = o.Text("dir", "").Length == 0;
        var dir = ownDir ? Path.Combine(Path.GetTempPath(), "NotifyStorm-" + Environment.ProcessId) : Path.GetFullPath(o.Text("dir", ""));
        Directory.CreateDirectory(dir);

        long created = 0, deleted = 0, changed = 0, overflows = 0;
        using var watcher = new FileSystemWatcher(dir)
        {
            InternalBufferSize = bufferKb * 1024,
            IncludeSubdirectories = false,
            NotifyFilter = NotifyFilters.FileName | NotifyFilters.LastWrite | NotifyFilters.Size,
        };
        watcher.Created += (_, _) => Interlocked.Increment(ref created);
        watcher.Deleted += (_, _) => Interlocked.Increment(ref deleted);
        watcher.Changed += (_, _) => Interlocked.Increment(ref changed);
        watcher.Error += (_, e) => { if (e.GetException() is InternalBufferOverflowException) Interlocked.Increment(ref overflows); };
        watcher.EnableRaisingEvents = true;
        Console.WriteLine($"NotifyStorm watcher pid {Environment.ProcessId}: watching {dir} with a {bufferKb} KiB buffer");

        int exit;
        try
        {
            exit = RunChurnProcess(dir, seconds, files);
        }
        finally
        {
            watcher.EnableRaisingEvents = false;
            if (ownDir) TryDelete(dir);
        }
        Console.WriteLine($"  watcher saw {created:N0} creates, {deleted:N0} deletes, {changed:N0} changes, {overflows:N0} buffer overflows");
        return exit;
    }

    /// <summary>Starts this program again in the churn role, so the file changes come from another process.</summary>
    private static int RunChurnProcess(string dir, int seconds, int files)
    {
        var self = Environment.ProcessPath ?? throw new InvalidOperationException("cannot find this program's path to start the churn process");
        var start = new ProcessStartInfo(self) { UseShellExecute = false };
        // Started as "dotnet NotifyStorm.dll": run the same dll again.
        if (Path.GetFileNameWithoutExtension(self).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
            start.ArgumentList.Add(typeof(Program).Assembly.Location);
        foreach (var a in new[] { "churn", "--dir", dir, "--seconds", seconds.ToString(), "--files", files.ToString() })
            start.ArgumentList.Add(a);
        using var child = Process.Start(start) ?? throw new InvalidOperationException("could not start the churn process");
        child.WaitForExit();
        return child.ExitCode;
    }

    [SupportedOSPlatform("windows")]
    private static int Churn(SampleOptions o)
    {
        o.RejectUnknown("dir", "seconds", "files");
        var dir = o.Text("dir", "");
        if (dir.Length == 0 || !Directory.Exists(dir)) throw new SampleUsageException($"churn needs an existing --dir, not '{dir}'");
        int seconds = o.Int("seconds", 10, 1, 3600);
        int files = o.Int("files", 200, 1, 100_000);
        var payload = new byte[100];
        long creates = 0, deletes = 0, deleteTicks = 0;
        var stopAt = Stopwatch.GetTimestamp() + seconds * Stopwatch.Frequency;
        var sw = Stopwatch.StartNew();
        Console.WriteLine($"NotifyStorm churn pid {Environment.ProcessId}: creating and deleting {files} files per round in {dir}");
        while (Stopwatch.GetTimestamp() < stopAt)
        {
            for (int i = 0; i < files; i++)
            {
                File.WriteAllBytes(Path.Combine(dir, $"f{i}.tmp"), payload);
                creates++;
            }
            for (int i = 0; i < files; i++)
            {
                long t0 = Stopwatch.GetTimestamp();
                File.Delete(Path.Combine(dir, $"f{i}.tmp"));
                deleteTicks += Stopwatch.GetTimestamp() - t0;
                deletes++;
            }
        }
        double s = sw.Elapsed.TotalSeconds;
        Console.WriteLine($"  churn: {creates:N0} creates, {deletes:N0} deletes in {s:N1} s = {deletes / s:N0} deletes/s, " +
            $"{deleteTicks * 1_000_000.0 / Stopwatch.Frequency / Math.Max(deletes, 1):N1} µs per delete");
        return 0;
    }

    private static void TryDelete(string dir)
    {
        try
        {
            Directory.Delete(dir, recursive: true);
        }
        catch (IOException e)
        {
            Console.Error.WriteLine($"  could not remove {dir}: {e.Message}");
        }
        catch (UnauthorizedAccessException e)
        {
            Console.Error.WriteLine($"  could not remove {dir}: {e.Message}");
        }
    }
}
