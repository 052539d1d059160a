using System.Diagnostics;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>
/// Runs one damaged trace through the reader the way a user would (open, enumerate every event touching its
/// spans, then the header-only walk) and classifies the outcome. Anything but a clean finish or an
/// <see cref="EtlFormatException"/> is a failure, and so is a case that takes longer than the timeout.
/// </summary>
internal static class MutationHarness
{
    /// <summary>Generous against the ~50 ms the largest case needs, short enough that a hang fails fast.</summary>
    public static readonly TimeSpan CaseTimeout = TimeSpan.FromSeconds(20);

    /// <summary>No case may allocate more than this beyond twice the file's size: nothing sized by a corrupt field.</summary>
    public const long AllocationAllowance = 64L * 1024 * 1024;

    /// <summary>
    /// Scale of the run: <c>HIDDENCOST_MUTATION_SCALE</c> (default 1) multiplies the case counts, and
    /// <c>HIDDENCOST_MUTATION_SEED</c> replaces the fixed seed, for longer runs on demand.
    /// </summary>
    public static int Scale => int.TryParse(Environment.GetEnvironmentVariable("HIDDENCOST_MUTATION_SCALE"), out var s) && s > 0 ? s : 1;

    public static int Seed => int.TryParse(Environment.GetEnvironmentVariable("HIDDENCOST_MUTATION_SEED"), out var s) ? s : 0x0505_2025;

    public enum Outcome { Clean, Warned, Rejected }

    public sealed class Tally
    {
        public int Cases, Clean, Warned, Rejected;
        public TimeSpan Slowest;

        public override string ToString() =>
            $"{Cases} cases: {Clean} clean, {Warned} read with warnings, {Rejected} rejected; slowest {Slowest.TotalMilliseconds:F0} ms";
    }

    /// <summary>Runs one case; fails the calling test with the seed and case description on a crash or hang.</summary>
    public static void Run(Tally tally, byte[] bytes, string description, bool headerOnlyWalk = true)
    {
        var watch = Stopwatch.StartNew();
        var task = Task.Run(() => Exercise(bytes, description, headerOnlyWalk));
        bool finished;
        try
        {
            finished = task.Wait(CaseTimeout);
        }
        catch (AggregateException e)
        {
            Assert.Fail($"{description} (seed {Seed}): {e.InnerException}");
            return;
        }
        if (!finished) Assert.Fail($"{description} (seed {Seed}): no result after {CaseTimeout.TotalSeconds} s (hang)");
        tally.Cases++;
        if (watch.Elapsed > tally.Slowest) tally.Slowest = watch.Elapsed;
        switch (task.Result)
        {
            case Outcome.Clean: tally.Clean++; break;
            case Outcome.Warned: tally.Warned++; break;
            default: tally.Rejected++; break;
        }
    }

    private static Outcome Exercise(byte[] bytes, string description, bool headerOnlyWalk)
    {
        long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        EtlReader reader;
        try
        {
            reader = EtlReader.Open(bytes, description);
        }
        catch (EtlFormatException e)
        {
            if (e.FilePath != description || e.Offset < 0) throw new InvalidOperationException("exception does not name the file and offset", e);
            return Outcome.Rejected;
        }
        using (reader)
        {
            // First on this thread alone, so every allocation the reader makes is counted; then again with
            // buffers loading ahead on other threads, which must not change a single event or warning.
            reader.ReadAhead = false;
            var alone = Pass(reader);
            var health = reader.Health;
            if (headerOnlyWalk)
            {
                long walked = reader.CountRecordsInFileOrder();
                if (walked != alone.Events && health.WarningCount == 0)
                    throw new InvalidOperationException($"merge delivered {alone.Events} events, header-only walk found {walked}");
            }
            long allocated = GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
            if (allocated > AllocationAllowance + 2L * bytes.Length)
                throw new InvalidOperationException($"{allocated} bytes allocated for a {bytes.Length}-byte file");
            reader.ReadAhead = true;
            var ahead = Pass(reader);
            if (ahead != alone) throw new InvalidOperationException($"reading ahead changed the pass: {alone} alone, {ahead} with read-ahead");
            return health.WarningCount == 0 ? Outcome.Clean : Outcome.Warned;
        }
    }

    private readonly record struct PassSummary(long Events, long Checksum, long Warnings, string FirstWarning, string LastWarning, long Buffers, long DamagedBuffers);

    private static PassSummary Pass(EtlReader reader)
    {
        long events = 0, checksum = 0;
        foreach (var e in reader.ReadEvents())
        {
            events++;
            checksum += e.TimeNs ^ e.ThreadId ^ e.ProcessId ^ e.Cpu ^ e.ProviderId.GetHashCode() ^ e.EventId;
            var payload = e.Payload;
            if (payload.Length > 0) checksum += payload[0] + payload[^1];
            var ext = e.ExtendedData;
            if (ext.Length > 0) checksum += ext[^1];
        }
        var health = reader.Health;
        return new PassSummary(events, checksum, health.WarningCount,
            health.Warnings.Count > 0 ? health.Warnings[0].ToString() : "", health.Warnings.Count > 0 ? health.Warnings[^1].ToString() : "",
            health.Buffers, health.DamagedBuffers);
    }
}
