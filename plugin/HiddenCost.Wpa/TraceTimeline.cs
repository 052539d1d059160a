using System.Globalization;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.TraceInfo;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa;

/// <summary>
/// The span WPA's timeline shows for a trace, read from our Trace Info table: first and last event in
/// nanoseconds since trace start, and the wall clock at trace start.
/// </summary>
internal static class TraceTimeline
{
    private static readonly DateTime Epoch = new(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    public static DataSourceInfo For(AnalysisResult result)
    {
        var info = result.Tables.OfType<Table<TraceInfoRow>>().FirstOrDefault();
        if (info is null || info.Rows.Count == 0) return new DataSourceInfo(0, 0, Epoch);

        var row = info.Rows[0];
        long first = Math.Max(0, row.Start);
        long last = Math.Max(first, row.End);
        var startUtc = DateTime.TryParseExact(row.TraceStartUtc, TraceInfoAnalysis.StartTimeFormat, CultureInfo.InvariantCulture,
                DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var parsed)
            ? parsed
            : Epoch;
        return new DataSourceInfo(first, last, startUtc.AddTicks(first / 100));
    }
}
