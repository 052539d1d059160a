namespace HiddenCost.Analysis.Catalogs;

/// <summary>
/// A catalogue data file broke one of its rules. The message names the file, the line and the rule, in the
/// compiler-style form <c>file(line): rule: detail</c>, so a bad edit is found without reading code.
/// </summary>
public sealed class CatalogFormatException : FormatException
{
    public CatalogFormatException(string sourceName, int line, string rule, string detail)
        : base($"{sourceName}({line}): {rule}: {detail}")
    {
        SourceName = sourceName;
        Line = line;
        Rule = rule;
        Detail = detail;
    }

    /// <summary>The file (or resource) that was read.</summary>
    public string SourceName { get; }

    /// <summary>1-based line number of the offending line.</summary>
    public int Line { get; }

    /// <summary>Short name of the rule broken, e.g. <c>field-count</c> or <c>duplicate-module</c>.</summary>
    public string Rule { get; }

    /// <summary>What was wrong, without the location prefix.</summary>
    public string Detail { get; }
}
