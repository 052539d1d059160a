using System.Text;

namespace HiddenCost.Dataset.Schema;

/// <summary>
/// The one rule that names dataset folders and columns after the table model: lower case; µ and μ become "u", % becomes
/// "pct", × becomes "x"; every run of other characters that are not ASCII letters or digits becomes one "_"; no "_"
/// at either end. A column the model types as a timestamp or duration (integer nanoseconds) gets "_ns" after it.
/// "Hook CPU (ms)" → hook_cpu_ms, "Hook Overhead per Syscall (µs)" → hook_overhead_per_syscall_us,
/// "Spin Share (%)" → spin_share_pct, "Start" (a timestamp) → start_ns, "Spin-Wait Cost per Lock" → spin_wait_cost_per_lock.
/// </summary>
public static class NameRule
{
    public static string SnakeCase(string name)
    {
        var s = new StringBuilder(name.Length + 4);
        bool gap = false;
        foreach (char raw in name)
        {
            string? word = raw switch { 'µ' or 'μ' => "u", '%' => "pct", '×' => "x", _ => null };
            if (word is null && char.IsAsciiLetterOrDigit(raw)) word = char.ToLowerInvariant(raw).ToString();
            if (word is null)
            {
                gap = s.Length > 0;
                continue;
            }
            // "%" and "×" are words of their own; "µ" is a prefix of the unit after it ("µs" → "us").
            if (gap || (raw is '%' or '×' && s.Length > 0 && s[^1] != '_')) s.Append('_');
            gap = false;
            s.Append(word);
        }
        return s.ToString();
    }

    /// <summary>The column name for a model column: its snake_case, with "_ns" for integer nanoseconds.</summary>
    public static string Column(string modelName, bool nanoseconds)
    {
        var name = SnakeCase(modelName);
        return nanoseconds && !name.EndsWith("_ns", StringComparison.Ordinal) ? name + "_ns" : name;
    }
}
