namespace HiddenCost.Etl.Decoding.Schema;

/// <summary>
/// How a field's bytes are laid out in the payload: TDH_IN_TYPE (tdh.h) values, which TraceLogging's TlgIn
/// types share for 0–23 (24 is TraceLogging's STRUCT; TDH reserves it).
/// </summary>
public enum FieldInType : ushort
{
    Null = 0,
    UnicodeString = 1,
    AnsiString = 2,
    Int8 = 3,
    UInt8 = 4,
    Int16 = 5,
    UInt16 = 6,
    Int32 = 7,
    UInt32 = 8,
    Int64 = 9,
    UInt64 = 10,
    Float = 11,
    Double = 12,
    /// <summary>win:Boolean / TraceLogging BOOL32: 4 bytes.</summary>
    Boolean = 13,
    /// <summary>Manifest: length from the schema or another field. TraceLogging: u16 byte count first.</summary>
    Binary = 14,
    Guid = 15,
    Pointer = 16,
    FileTime = 17,
    SystemTime = 18,
    Sid = 19,
    HexInt32 = 20,
    HexInt64 = 21,
    /// <summary>u16 byte count, then UTF-16 text.</summary>
    CountedString = 22,
    /// <summary>u16 byte count, then 8-bit text.</summary>
    CountedAnsiString = 23,
    /// <summary>TraceLogging struct: its members follow.</summary>
    Struct = 24,
    /// <summary>u16 byte count, then bytes.</summary>
    CountedBinary = 25,
    TdhCountedString = 300,
    TdhCountedAnsiString = 301,
    ReversedCountedString = 302,
    ReversedCountedAnsiString = 303,
    NonNullTerminatedString = 304,
    NonNullTerminatedAnsiString = 305,
    UnicodeChar = 306,
    AnsiChar = 307,
    SizeT = 308,
    HexDump = 309,
    WbemSid = 310,
}

/// <summary>Presentation hints (TDH_OUT_TYPE) the decoder uses when it formats a value.</summary>
public static class FieldOutType
{
    public const ushort Null = 0, String = 1, DateTime = 2, Byte = 3, UnsignedByte = 4, Short = 5, UnsignedShort = 6,
        Int = 7, UnsignedInt = 8, Long = 9, UnsignedLong = 10, Float = 11, Double = 12, Boolean = 13, Guid = 14,
        HexBinary = 15, HexInt8 = 16, HexInt16 = 17, HexInt32 = 18, HexInt64 = 19, Pid = 20, Tid = 21, Port = 22,
        IPv4 = 23, IPv6 = 24, SocketAddress = 25, CimDateTime = 26, EtwTime = 27, Xml = 28, ErrorCode = 29,
        Win32Error = 30, NtStatus = 31, HResult = 32, CultureInsensitiveDateTime = 33, Json = 34, Utf8 = 35,
        Pkcs7WithTypeInfo = 36, CodePointer = 37, DateTimeUtc = 38;
}
