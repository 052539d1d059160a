using System.Globalization;
using System.Text.Json;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>Why a thresholds file cannot be used; the message names the file and what is wrong.</summary>
public sealed class ThresholdsFileException(string message) : Exception(message);

/// <summary>
/// Reads <c>--thresholds FILE</c>: a JSON object whose members replace the defaults they name, e.g.
/// <c>{ "notifyBuffer": { "high": 536870912 }, "zeroingBytesPerSecond": 5368709120 }</c>. Problems are
/// <c>syscallHook</c>, <c>spinWait</c>, <c>openMp</c>, <c>notifyBuffer</c>, <c>eventLogRender</c>, each with any of
/// <c>low</c>, <c>medium</c>, <c>high</c>, <c>minimumCostMs</c>; top-level numbers <c>zeroingBytesPerSecond</c> and
/// <c>rightSizedBufferBytes</c>. Anything else — an unknown name, a value that is not a finite number ≥ 0, levels out of
/// order, a zero zeroing rate — is refused with the file and the member named.
/// </summary>
public static class ThresholdsFile
{
    private const long MaximumFileBytes = 1 << 20;

    public static FindingThresholds Load(string path)
    {
        string text;
        try
        {
            var info = new FileInfo(path);
            if (!info.Exists) throw new ThresholdsFileException($"{path}: no such file");
            if (info.Length > MaximumFileBytes) throw new ThresholdsFileException($"{path}: {info.Length:N0} bytes: a thresholds file is at most {MaximumFileBytes:N0}");
            text = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new ThresholdsFileException($"{path}: {e.Message}");
        }
        return Parse(text, path);
    }

    public static FindingThresholds Parse(string json, string path)
    {
        JsonDocument doc;
        try
        {
            doc = JsonDocument.Parse(json, new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true, MaxDepth = 8 });
        }
        catch (JsonException e)
        {
            throw new ThresholdsFileException($"{path}: line {(e.LineNumber ?? 0) + 1}, byte {(e.BytePositionInLine ?? 0) + 1}: not valid JSON");
        }
        using (doc)
        {
            var root = doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object) throw new ThresholdsFileException($"{path}: expected a JSON object of thresholds");
            var t = FindingThresholds.Default;
            foreach (var member in root.EnumerateObject())
            {
                t = member.Name switch
                {
                    "syscallHook" => t with { SyscallHook = Levels(t.SyscallHook, member, path) },
                    "spinWait" => t with { SpinWait = Levels(t.SpinWait, member, path) },
                    "openMp" => t with { OpenMp = Levels(t.OpenMp, member, path) },
                    "notifyBuffer" => t with { NotifyBuffer = Levels(t.NotifyBuffer, member, path) },
                    "eventLogRender" => t with { EventLogRender = Levels(t.EventLogRender, member, path) },
                    "zeroingBytesPerSecond" => t with { ZeroingBytesPerSecond = Positive(Number(member.Value, member.Name, path), member.Name, path) },
                    "rightSizedBufferBytes" => t with { RightSizedBufferBytes = (long)Math.Min(Number(member.Value, member.Name, path), 1L << 53) },
                    _ => throw new ThresholdsFileException($"{path}: unknown member '{member.Name}' (syscallHook, spinWait, openMp, notifyBuffer, " +
                                                           "eventLogRender, zeroingBytesPerSecond, rightSizedBufferBytes)"),
                };
            }
            return t;
        }
    }

    private static Levels Levels(Levels levels, JsonProperty problem, string path)
    {
        if (problem.Value.ValueKind != JsonValueKind.Object) throw new ThresholdsFileException($"{path}: {problem.Name}: expected an object of low, medium, high, minimumCostMs");
        foreach (var m in problem.Value.EnumerateObject())
        {
            var name = $"{problem.Name}.{m.Name}";
            var value = Number(m.Value, name, path);
            levels = m.Name switch
            {
                "low" => levels with { Low = value },
                "medium" => levels with { Medium = value },
                "high" => levels with { High = value },
                "minimumCostMs" => levels with { MinimumCostMs = value },
                _ => throw new ThresholdsFileException($"{path}: unknown member '{name}' (low, medium, high, minimumCostMs)"),
            };
        }
        if (!(levels.Low <= levels.Medium && levels.Medium <= levels.High))
            throw new ThresholdsFileException(string.Create(CultureInfo.InvariantCulture,
                $"{path}: {problem.Name}: levels must rise: low {levels.Low} ≤ medium {levels.Medium} ≤ high {levels.High}"));
        return levels;
    }

    private static double Number(JsonElement value, string name, string path)
    {
        if (value.ValueKind != JsonValueKind.Number || !value.TryGetDouble(out var d) || !double.IsFinite(d) || d < 0)
            throw new ThresholdsFileException($"{path}: {name}: expected a number ≥ 0, found {value.GetRawText()}");
        return d;
    }

    private static double Positive(double value, string name, string path) =>
        value > 0 ? value : throw new ThresholdsFileException($"{path}: {name}: must be above 0");
}
