using System.CommandLine;
using HiddenCost.Analysis.Tables.Findings;

namespace HiddenCost.Cli.Commands;

/// <summary>What the Findings options ask for: the thresholds to judge by, and the severity that fails the run (exit 5).</summary>
public sealed record FindingsSettings(FindingThresholds? Thresholds, Severity? FailOn)
{
    public static readonly FindingsSettings Default = new(null, null);
}

/// <summary>
/// `--thresholds FILE` and `--fail-on high|medium|low`, for the analysing command and `compare` alike.
/// </summary>
public sealed class FindingsOptions
{
    public Option<string?> FailOn { get; } = new("--fail-on")
    {
        Description = "Exit 5 when a finding of this severity or above exists (compare: a new or worse one); 1 and 3 still win",
        HelpName = "high|medium|low",
    };

    public Option<string?> Thresholds { get; } = new("--thresholds")
    {
        Description = "Findings' thresholds from this JSON file instead of the defaults (see plugin/HiddenCost.Analysis/Tables/Findings/README.md)",
        HelpName = "FILE",
    };

    /// <summary>The options, added to <paramref name="command"/>.</summary>
    public static FindingsOptions AddTo(Command command)
    {
        var options = new FindingsOptions();
        command.Options.Add(options.FailOn);
        command.Options.Add(options.Thresholds);
        return options;
    }

    /// <summary>The settings the parse asks for, or null after writing why they cannot be used to <paramref name="err"/> (exit 2).</summary>
    public FindingsSettings? Read(ParseResult parse, TextWriter err)
    {
        Severity? failOn = null;
        if (parse.GetValue(FailOn) is { } level)
        {
            if (!SeverityNames.TryParse(level, out var s) || s is Severity.None or Severity.NotChecked)
            {
                err.WriteLine($"error: --fail-on {level}: expected high, medium or low");
                return null;
            }
            failOn = s;
        }
        FindingThresholds? thresholds = null;
        if (parse.GetValue(Thresholds) is { } file)
        {
            try
            {
                thresholds = ThresholdsFile.Load(file);
            }
            catch (ThresholdsFileException e)
            {
                err.WriteLine($"error: --thresholds {e.Message}");
                return null;
            }
        }
        return new FindingsSettings(thresholds, failOn);
    }
}
