using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>Fields of WMI_PROCESS_INFORMATION (Process Start/End/DCStart/DCEnd, version 4).</summary>
public sealed record ProcessInfo(uint ProcessId, uint ParentId, string ImageFileName, string CommandLine)
{
    public ulong UniqueProcessKey { get; init; }
    public uint SessionId { get; init; }
    public int ExitStatus { get; init; }
    public ulong DirectoryTableBase { get; init; }
    public uint Flags { get; init; }

    /// <summary>SID as its binary form (revision, count, authority, sub-authorities), or null for none (written as a u32 0).</summary>
    public byte[]? UserSid { get; init; }

    public string PackageFullName { get; init; } = "";
    public string ApplicationId { get; init; } = "";

    /// <summary>S-1-5-18 (LocalSystem) in binary form.</summary>
    public static byte[] LocalSystemSid => [1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0];

    /// <summary>S-1-5-19 (LocalService).</summary>
    public static byte[] LocalServiceSid => [1, 1, 0, 0, 0, 0, 0, 5, 19, 0, 0, 0];
}

/// <summary>Process group (0x03).</summary>
public static class ProcessEvents
{
    public const byte StartType = 1;
    public const byte EndType = 2;
    public const byte DCStartType = 3;
    public const byte DCEndType = 4;

    /// <summary>
    /// Process Start/End (SYSTEM header) and DCStart/DCEnd (PERFINFO header), version 4 — kinds and version as in
    /// the PerfView (Win8) and WPR (Win11 26100) samples. Layout (etl-format §2.5; ntwmi.h WMI_PROCESS_INFORMATION):
    /// ptr UniqueProcessKey; u32 ProcessId; u32 ParentId; u32 SessionId; i32 ExitStatus; ptr DirectoryTableBase;
    /// u32 Flags; SID (u32 0 when absent, else TOKEN_USER {ptr Sid; u32 Attributes, padded to 2 pointers} followed by
    /// the SID — the samples' form); ANSI ImageFileName; UTF-16 CommandLine; UTF-16 PackageFullName;
    /// UTF-16 ApplicationId.
    /// </summary>
    public static KernelRecord Lifetime(EventContext c, byte type, ProcessInfo info)
    {
        var kind = type switch
        {
            StartType or EndType => RecordKind.System,
            DCStartType or DCEndType => RecordKind.PerfInfo,
            _ => throw new ArgumentException($"not a process lifetime type: {type}"),
        };
        var p = new PayloadBuilder(c.PointerSize)
            .Pointer(info.UniqueProcessKey).U32(info.ProcessId).U32(info.ParentId).U32(info.SessionId)
            .I32(info.ExitStatus).Pointer(info.DirectoryTableBase).U32(info.Flags);
        if (info.UserSid is null)
        {
            p.U32(0);
        }
        else
        {
            // TOKEN_USER: the kernel copies the structure with its (kernel) pointer to the SID that follows.
            p.Pointer(info.UniqueProcessKey + 0x40).U32(0);
            if (c.PointerSize == 8) p.U32(0);
            p.Bytes(info.UserSid);
        }
        p.AString(info.ImageFileName).WString(info.CommandLine).WString(info.PackageFullName).WString(info.ApplicationId);
        return PerfInfoEvents.KernelEvent(c, kind, KernelGroup.Process, type, 4, p);
    }
}
