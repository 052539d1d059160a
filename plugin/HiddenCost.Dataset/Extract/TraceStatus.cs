namespace HiddenCost.Dataset.Extract;

/// <summary>How a trace's extraction went; its name in lower case is the traces table's <c>status</c>.</summary>
public enum TraceStatus
{
    /// <summary>Analysed whole.</summary>
    Ok,
    /// <summary>Read in part: the file is damaged or cut short (the message says where).</summary>
    Damaged,
    /// <summary>Not a trace HiddenCost can read (empty, not ETL, unsupported): the analysis's error.</summary>
    Refused,
    /// <summary>The file could not be read, or the analysis failed unexpectedly (a bug).</summary>
    Failed,
    /// <summary>Already in the dataset from this HiddenCost version, or the same content met earlier in this run: not extracted again.</summary>
    Skipped,
}
