namespace HiddenCost.Synthetic.Events;

/// <summary>
/// Where and when an event is logged: the CPU whose buffer holds it, its QPC timestamp, the pointer size of the
/// logging context, and the thread and process written in headers that carry them (SYSTEM, EVENT_HEADER,
/// classic). PERFINFO headers ignore thread and process.
/// </summary>
public readonly record struct EventContext(int Cpu, long Timestamp, int PointerSize = 8, uint ThreadId = 0, uint ProcessId = 0)
{
    public EventContext At(long timestamp) => this with { Timestamp = timestamp };
}

/// <summary>Kernel event groups (high byte of the HookId; ntwmi.h EVENT_TRACE_GROUP_*).</summary>
public static class KernelGroup
{
    public const byte Header = 0x00;
    public const byte PageFault = 0x02;
    public const byte Process = 0x03;
    public const byte FileIo = 0x04;
    public const byte Thread = 0x05;
    public const byte Registry = 0x09;
    public const byte PerfInfo = 0x0F;
    public const byte Image = 0x14;
    public const byte StackWalk = 0x18;
}

/// <summary>Provider GUIDs of the non-kernel events the emitters write.</summary>
public static class Providers
{
    /// <summary>KernelTraceControl ImageID task GUID used by merged traces (SymbolTraceEventParser; verified in samples).</summary>
    public static readonly Guid KernelTraceControlImageId = new("b3e675d7-2554-4f18-830b-2762732560de");

    /// <summary>KernelTraceControl SystemConfigEx task GUID (volume mappings, build info; verified in samples).</summary>
    public static readonly Guid KernelTraceControlSystemConfigEx = new("9b79ee91-b5fd-41c0-a243-4248e266e9d0");

    public static readonly Guid DotNetRuntime = new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    public static readonly Guid DotNetRuntimeRundown = new("a669021c-c450-4609-a035-5af59af4df18");
    public static readonly Guid Rpc = new("6ad52b32-d609-4be9-ae07-ce8dae937e39");
    public static readonly Guid WmiActivity = new("1418ef04-b0b4-4623-bf7e-d74ab47bbdaa");
}
