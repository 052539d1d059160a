using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>PageFault group (0x02).</summary>
public static class PageFaultEvents
{
    public const byte TransitionFaultType = 10;
    public const byte DemandZeroFaultType = 11;
    public const byte CopyOnWriteType = 12;

    /// <summary>
    /// Soft page faults 10–15 (MS "PageFault_TypeGroup1"; ntwmi.h WMI_PAGE_FAULT): ptr VirtualAddress;
    /// ptr ProgramCounter. SYSTEM header (WRK WmipTracePageFault reserves with WmiReserveWithSystemHeader, so the
    /// faulting thread and process are in the header), version 2.
    /// </summary>
    public static KernelRecord SoftFault(EventContext c, byte type, ulong virtualAddress, ulong programCounter)
    {
        if (type is < 10 or > 15) throw new ArgumentException($"not a soft page fault type: {type}");
        var p = new PayloadBuilder(c.PointerSize).Pointer(virtualAddress).Pointer(programCounter);
        return PerfInfoEvents.KernelEvent(c, RecordKind.System, KernelGroup.PageFault, type, 2, p);
    }

    public static KernelRecord DemandZero(EventContext c, ulong virtualAddress, ulong programCounter) =>
        SoftFault(c, DemandZeroFaultType, virtualAddress, programCounter);
}
