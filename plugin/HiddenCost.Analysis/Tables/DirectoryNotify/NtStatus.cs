namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>NTSTATUS values the notify analysis distinguishes (ntstatus.h).</summary>
internal static class NtStatus
{
    public const uint Success = 0x0000_0000;
    /// <summary>The changes did not fit in the buffer; the watcher must re-enumerate. No data returned.</summary>
    public const uint NotifyEnumDir = 0x0000_010C;
    /// <summary>The handle was closed while the request was pending.</summary>
    public const uint NotifyCleanup = 0x0000_010B;
    public const uint Cancelled = 0xC000_0120;
    /// <summary>A create sent on to another path (a reparse point, a filter's redirect): it changed nothing yet.</summary>
    public const uint Reparse = 0x0000_0104;
}
