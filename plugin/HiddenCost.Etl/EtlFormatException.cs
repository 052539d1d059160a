namespace HiddenCost.Etl;

/// <summary>
/// The file cannot be read as an ETL trace at all (missing, empty, not ETL, header unreadable). Damage later
/// in a readable file is not thrown: the reader delivers the events before it and records a health warning.
/// </summary>
public sealed class EtlFormatException : Exception
{
    public EtlFormatException(string filePath, long offset, string reason, Exception? inner = null)
        : base($"{filePath}: offset 0x{offset:X}: {reason}", inner)
    {
        FilePath = filePath;
        Offset = offset;
        Reason = reason;
    }

    public string FilePath { get; }

    /// <summary>Byte offset in the file where the problem was found.</summary>
    public long Offset { get; }

    public string Reason { get; }
}
