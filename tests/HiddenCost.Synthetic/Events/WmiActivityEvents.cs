using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>The fields of a WMI-Activity operation start.</summary>
public sealed record WmiOperationInfo(uint OperationId, string Operation, uint ClientProcessId)
{
    public string CorrelationId { get; init; } = "";
    public uint GroupOperationId { get; init; }
    public string ClientMachine { get; init; } = "";
    public string ClientMachineFqdn { get; init; } = "";
    public string User { get; init; } = "";
    /// <summary>FILETIME of the client's creation (disambiguates reused process ids).</summary>
    public ulong ClientProcessCreationTime { get; init; }
    public string NamespaceName { get; init; } = @"\\.\root\cimv2";
    public bool IsLocal { get; init; } = true;
}

/// <summary>
/// Microsoft-Windows-WMI-Activity (1418ef04-…). Event 11, version 0, task 0, opcode 0, level 4, keyword
/// 0x8000000000000000 (the Trace channel's keyword per Alois-xx/WMIWatcher), logged by the WMI service process.
/// </summary>
public static class WmiActivityEvents
{
    public const ushort OperationStartId = 11;
    public const ulong TraceKeyword = 0x8000_0000_0000_0000;

    /// <summary>
    /// Event 11 (event-payloads.md §3.1; repnz manifest dump and jdu2600 TSV): UTF-16 CorrelationId;
    /// u32 GroupOperationId; u32 OperationId; UTF-16 Operation; UTF-16 ClientMachine; UTF-16 ClientMachineFQDN;
    /// UTF-16 User; u32 ClientProcessId; u64 ClientProcessCreationTime; UTF-16 NamespaceName; bool32 IsLocal.
    /// </summary>
    public static ManifestRecord OperationStart(EventContext c, WmiOperationInfo op)
    {
        var p = new PayloadBuilder(c.PointerSize)
            .WString(op.CorrelationId).U32(op.GroupOperationId).U32(op.OperationId).WString(op.Operation)
            .WString(op.ClientMachine).WString(op.ClientMachineFqdn).WString(op.User).U32(op.ClientProcessId)
            .U64(op.ClientProcessCreationTime).WString(op.NamespaceName).U32(op.IsLocal ? 1u : 0u);
        return new ManifestRecord
        {
            Cpu = c.Cpu,
            Timestamp = c.Timestamp,
            PointerSize = c.PointerSize,
            ProviderId = Providers.WmiActivity,
            Descriptor = new EventDescriptor(OperationStartId, 0, 16, 4, 0, 0, TraceKeyword),
            ThreadId = c.ThreadId,
            ProcessId = c.ProcessId,
            Payload = p.ToArray(),
        };
    }
}
