using System.Globalization;

namespace HiddenCost.Samples;

/// <summary>
/// <c>--name value</c> options of a reproducer, with defaults and a usage text; a bad value is a clear message
/// and exit code 1, never an exception trace.
/// </summary>
internal sealed class SampleOptions
{
    private readonly Dictionary<string, string> _values = new(StringComparer.OrdinalIgnoreCase);

    private SampleOptions(IReadOnlyList<string> positional) => Positional = positional;

    /// <summary>Arguments that are not options (e.g. a role such as <c>churn</c>).</summary>
    public IReadOnlyList<string> Positional { get; }

    public bool HelpRequested { get; private init; }

    public static SampleOptions Parse(string[] args)
    {
        var positional = new List<string>();
        var values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        bool help = false;
        for (int i = 0; i < args.Length; i++)
        {
            var a = args[i];
            if (a is "-h" or "--help" or "/?") help = true;
            else if (a.StartsWith("--", StringComparison.Ordinal))
            {
                if (i + 1 >= args.Length) throw new SampleUsageException($"option {a} needs a value");
                values[a[2..]] = args[++i];
            }
            else positional.Add(a);
        }
        var o = new SampleOptions(positional) { HelpRequested = help };
        foreach (var (k, v) in values) o._values[k] = v;
        return o;
    }

    public int Int(string name, int defaultValue, int min, int max)
    {
        if (!_values.TryGetValue(name, out var text)) return defaultValue;
        if (!int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var v) || v < min || v > max)
            throw new SampleUsageException($"--{name} must be a whole number from {min} to {max}, not '{text}'");
        return v;
    }

    public string Text(string name, string defaultValue) => _values.TryGetValue(name, out var v) ? v : defaultValue;

    public string Choice(string name, string defaultValue, params string[] allowed)
    {
        var v = Text(name, defaultValue);
        return allowed.FirstOrDefault(a => a.Equals(v, StringComparison.OrdinalIgnoreCase))
            ?? throw new SampleUsageException($"--{name} must be one of {string.Join(", ", allowed)}, not '{v}'");
    }

    /// <summary>Names of options given that the program does not know: typos are reported, not ignored.</summary>
    public void RejectUnknown(params string[] known)
    {
        var unknown = _values.Keys.Where(k => !known.Contains(k, StringComparer.OrdinalIgnoreCase)).ToArray();
        if (unknown.Length > 0)
            throw new SampleUsageException($"unknown option {string.Join(", ", unknown.Select(u => "--" + u))}; known: {string.Join(", ", known.Select(k => "--" + k))}");
    }
}

/// <summary>A command-line mistake: printed with the usage text.</summary>
internal sealed class SampleUsageException(string message) : Exception(message);
