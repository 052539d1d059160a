namespace HiddenCost.Etl.Buffers;

/// <summary>WMI_BUFFER_HEADER.BufferFlag bits (ntwmi.h).</summary>
[Flags]
public enum BufferFlags : ushort
{
    None = 0,
    FlushMarker = 0x01,
    EventsLost = 0x02,
    BufferLost = 0x04,
    RealTimeBackupCorrupt = 0x08,
    RealTimeBackup = 0x10,
    ProcessorIndex = 0x20,
    Compressed = 0x40,
}
