using static HiddenCost.Analysis.Tables.Findings.FigureText;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// One assessment per watcher in Directory Notify Buffers. The trace has no CPU figure for the kernel's zeroing of a
/// notification buffer (it happens in the changers' context, in functions only symbols name), so the cost is estimated
/// from the bytes zeroed at <see cref="FindingThresholds.ZeroingBytesPerSecond"/>, and Evidence says so. Only buffers
/// above <see cref="FindingThresholds.RightSizedBufferBytes"/> can be findings: a smaller one is already the size to use.
/// </summary>
internal static class NotifyBufferRule
{
    public const string SeeTable = "Directory Notify Buffers";

    public static IEnumerable<Finding> Assess(IReadOnlyList<NotifyWatcherFigures> watchers, FindingThresholds t)
    {
        foreach (var w in watchers)
        {
            double costMs = w.BytesZeroed / t.ZeroingBytesPerSecond * 1000;
            double? seconds = w.FirstArmNs is { } a && w.WatchEndNs is { } e && e > a ? (e - a) / 1e9 : null;
            double rate = seconds is { } s ? w.BytesZeroed / s : double.NaN;
            var severity = w.BufferBytes > t.RightSizedBufferBytes ? t.NotifyBuffer.Of(rate, costMs) : Severity.None;
            var figures = new List<Figure>
            {
                new("Buffer", w.BufferBytes, "bytes", $"{Count(w.BufferBytes)}-byte buffer"),
                new("Completions", w.Completions, "", $"{Count(w.Completions)} completions"),
                new("Bytes Zeroed", w.BytesZeroed, "bytes", $"{Bytes(w.BytesZeroed)} zeroed"),
            };
            if (!double.IsNaN(rate)) figures.Add(new("Bytes Zeroed per Second", rate, "bytes/s", $"{Rate(rate)}"));
            if (w.MeanBytesPerCompletion is { } mean) figures.Add(new("Mean Bytes per Completion", mean, "bytes", $"{Bytes(Math.Round(mean))} returned per completion"));
            var note = $"cost estimated from the bytes zeroed at {Rate(t.ZeroingBytesPerSecond)}";
            var returned = w.MeanBytesPerCompletion is { } m ? $"its batches averaged {Bytes(Math.Round(m))} of {Bytes(w.BufferBytes)}, and " : "";
            var recommendation = w.RecommendedBufferBytes is { } size
                ? $"Give {w.Process}'s ReadDirectoryChangesW on {w.Directory} (FileSystemWatcher.InternalBufferSize) a {Count(size)}-byte buffer ({Size(size)}) " +
                  $"instead of {Bytes(w.BufferBytes)} ({Size(w.BufferBytes)}): {returned}each of its {Count(w.Completions)} completions made the kernel " +
                  $"zero the whole buffer, {Bytes(w.BytesZeroed)} in all."
                : $"Cap {w.Process}'s notification buffer on {w.Directory} at {Bytes(t.RightSizedBufferBytes)} ({Size(t.RightSizedBufferBytes)}) instead of " +
                  $"{Bytes(w.BufferBytes)} ({Size(w.BufferBytes)}) and rescan the directory when a batch overflows (STATUS_NOTIFY_ENUM_DIR): {returned}each " +
                  $"of its {Count(w.Completions)} completions made the kernel zero the whole buffer, {Bytes(w.BytesZeroed)} in all.";
            yield return new Finding(Problems.NotifyBuffer, severity, $"{w.Process} watching {w.Directory}", w.Victims, costMs, true,
                figures, note, recommendation, SeeTable, w.FirstArmNs, w.WatchEndNs);
        }
    }
}
