namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>Which end of an RPC call an event describes (Microsoft-Windows-RPC 5/7 client, 6/8 server).</summary>
public enum RpcSide
{
    Client,
    Server,
}
