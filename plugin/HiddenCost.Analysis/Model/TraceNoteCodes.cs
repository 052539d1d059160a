namespace HiddenCost.Analysis.Model;

/// <summary>The codes of the notes said on every table of a trace (<see cref="TableNote.Code"/>), which hosts report once per trace.</summary>
public static class TraceNoteCodes
{
    /// <summary>The trace could not be read at all (an <see cref="NoteSeverity.Error"/>: the result's error).</summary>
    public const string Unreadable = "trace.unreadable";

    /// <summary>The tables come from part of the trace only: it is damaged, joined, or holds undecodable events (the result's warning).</summary>
    public const string Partial = "trace.partial";

    /// <summary>ETW lost events or buffers while recording: figures are lower bounds.</summary>
    public const string EventsLost = "trace.events-lost";

    /// <summary>Events of the kinds this table needs could not be decoded.</summary>
    public const string Undecodable = "trace.undecodable-events";
}
