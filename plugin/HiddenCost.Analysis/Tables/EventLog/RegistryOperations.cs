namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Which kernel Registry events (group 9) are operations a thread performed. KCB create, delete and rundown
/// (22–25) only tell the trace which key a KCB address names, and the newer hive/counter/notification types
/// (0x20 and up) describe the registry itself, not a call; counting them would inflate the per-message figure.
/// </summary>
public static class RegistryOperations
{
    public const byte Create = 10, Open = 11, Delete = 12, Query = 13, SetValue = 14, DeleteValue = 15, QueryValue = 16,
        EnumerateKey = 17, EnumerateValueKey = 18, QueryMultipleValue = 19, SetInformation = 20, Flush = 21,
        KcbCreate = 22, KcbDelete = 23, KcbRundownBegin = 24, KcbRundownEnd = 25, Virtualize = 26, Close = 27;

    public static bool IsOperation(byte opcode) => opcode is >= Create and <= Flush or Virtualize or Close;
}
