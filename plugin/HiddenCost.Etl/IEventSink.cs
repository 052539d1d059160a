namespace HiddenCost.Etl;

/// <summary>Receives every event of a pass, in timestamp order, on one thread (<see cref="EtlReader.Dispatch"/>).</summary>
public interface IEventSink
{
    /// <summary>One event; its spans are valid only during the call.</summary>
    void OnEvent(in EtwEvent e);
}
