using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// Process Start (1), End (2), DCStart (3), DCEnd (4) and Defunct (39): WMI_PROCESS_INFORMATION, versions 2–5.
/// Layout (p = pointer size): ptr UniqueProcessKey; u32 ProcessId; u32 ParentId; u32 SessionId; i32 ExitStatus;
/// (v3+) ptr DirectoryTableBase; (v4+) u32 Flags; SID; ANSI ImageFileName; UTF-16 CommandLine;
/// (v4+) UTF-16 PackageFullName; UTF-16 ApplicationId. Later versions append fields we do not need.
/// </summary>
public readonly record struct ProcessEvent(
    byte Opcode,
    ulong UniqueProcessKey,
    int ProcessId,
    int ParentId,
    int SessionId,
    int ExitStatus,
    ulong DirectoryTableBase,
    uint Flags,
    string ImageFileName,
    string CommandLine,
    string PackageFullName,
    string ApplicationId)
{
    public const byte Start = 1, End = 2, DCStart = 3, DCEnd = 4, Defunct = 39;

    public bool IsStart => Opcode is Start or DCStart;
    public bool IsEnd => Opcode is End or DCEnd or Defunct;

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.Process && e.Opcode is Start or End or DCStart or DCEnd or Defunct;

    public static bool TryDecode(in EtwEvent e, out ProcessEvent process, StringPool? strings = null)
    {
        process = default;
        if (!Matches(e) || e.Version < 2) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        int offset = ptr + 16;
        if (p.Length < offset) return false;
        ulong directoryTableBase = 0;
        uint flags = 0;
        if (e.Version >= 3)
        {
            directoryTableBase = PayloadReader.Pointer(p, offset, ptr);
            offset += ptr;
        }
        if (e.Version >= 4)
        {
            flags = PayloadReader.U32(p, offset);
            offset += 4;
        }
        offset = Sid.Skip(p, offset, ptr);
        string image = PayloadStrings.Ansi(p, ref offset, strings);
        string commandLine = PayloadStrings.Utf16(p, ref offset, strings);
        string package = e.Version >= 4 ? PayloadStrings.Utf16(p, ref offset, strings) : "";
        string application = e.Version >= 4 ? PayloadStrings.Utf16(p, ref offset, strings) : "";
        process = new ProcessEvent(e.Opcode, PayloadReader.Pointer(p, 0, ptr),
            PayloadReader.I32(p, ptr), PayloadReader.I32(p, ptr + 4), PayloadReader.I32(p, ptr + 8), PayloadReader.I32(p, ptr + 12),
            directoryTableBase, flags, image, commandLine, package, application);
        return true;
    }
}

/// <summary>The SID embedded in kernel process events (TraceEvent's SkipSID rule).</summary>
internal static class Sid
{
    /// <summary>
    /// Offset just past the SID at <paramref name="offset"/>: 4 bytes when its first u32 is 0 (no SID);
    /// otherwise a TOKEN_USER (2 pointers) then the SID (8 + 4 × SubAuthorityCount bytes).
    /// </summary>
    public static int Skip(ReadOnlySpan<byte> p, int offset, int pointerSize)
    {
        if (PayloadReader.U32(p, offset) == 0) return offset + 4;
        int sid = offset + 2 * pointerSize;
        int subAuthorities = PayloadReader.U8(p, sid + 1);
        return sid + 8 + 4 * subAuthorities;
    }
}
