namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// MS-EVEN6 (EventLog Remoting Protocol 6.0) as the RPC events name it: the interface UUID and the opnums that
/// read and render events (MS-EVEN6 §3.1.4; the order of Samba's eventlog6.idl agrees).
/// </summary>
public static class Even6
{
    public static readonly Guid InterfaceId = new("F6BEAFF7-1E19-4FBB-9F8F-B89E2018337C");

    /// <summary>
    /// MS-EVEN, the EventLog Remoting Protocol before 6.0 (ElfrReadELW and kin: Win32 ReadEventLog, as Get-EventLog and
    /// .NET's EventLog read logs). Its readers get raw records and format messages in their own process, not in the service.
    /// </summary>
    public static readonly Guid LegacyInterfaceId = new("82273FDC-E32A-18C3-3F78-827929DC23EA");

    public const int RegisterLogQuery = 5;
    public const int MessageRender = 9;
    public const int MessageRenderDefault = 10;
    public const int QueryNext = 11;
    public const int QuerySeek = 12;

    /// <summary>What a call on the interface does for a reader of a log; other opnums (subscriptions, configuration, publisher metadata) are not tracked.</summary>
    public static Even6CallKind KindOf(int opnum) => opnum switch
    {
        MessageRender or MessageRenderDefault => Even6CallKind.Render,
        QueryNext => Even6CallKind.QueryNext,
        RegisterLogQuery or QuerySeek => Even6CallKind.QueryOther,
        _ => Even6CallKind.Untracked,
    };
}

/// <summary>The role of an MS-EVEN6 call in reading a log.</summary>
public enum Even6CallKind
{
    Untracked,
    /// <summary>EvtRpcMessageRender / EvtRpcMessageRenderDefault: formats one message (the costly part).</summary>
    Render,
    /// <summary>EvtRpcQueryNext: returns the next batch of records of a query.</summary>
    QueryNext,
    /// <summary>EvtRpcRegisterLogQuery / EvtRpcQuerySeek: open or position a query; they read the log too.</summary>
    QueryOther,
}
