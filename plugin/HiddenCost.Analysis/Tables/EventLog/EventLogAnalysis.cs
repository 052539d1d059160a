using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Wmi;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Event Log Render Cost in the single pass: picks the events the table needs out of the stream (process and
/// image rundown, CSwitch, Registry, FileIo reads and names, Microsoft-Windows-RPC 5–8, WMI-Activity 11),
/// decodes them with the typed decoders and hands the facts to <see cref="EventLogTracker"/>.
/// </summary>
public sealed class EventLogAnalysis : ITraceAnalysis
{
    private readonly EventLogTracker _tracker;
    private readonly StringPool _strings;

    public EventLogAnalysis(TraceSession session)
    {
        _strings = session.Strings;
        _tracker = new EventLogTracker(session.Process, session.Running);
    }

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { EventLogTables.RenderCost.Spec };

    public void OnEvent(in EtwEvent e)
    {
        if (e.IsKernel)
        {
            OnKernelEvent(e);
            return;
        }
        if (e.Kind != RecordHeaderKind.EventHeader) return;
        if (e.ProviderId == RpcProvider.Id) OnRpcEvent(e);
        else if (e.ProviderId == WmiActivityProvider.Id) OnWmiEvent(e);
    }

    private void OnWmiEvent(in EtwEvent e)
    {
        if (WmiOperationStart.TryDecode(e, out var start, _strings))
            _tracker.WmiOperationStart(e.TimeNs, start.Operation, start.ClientProcessId, start.GroupOperationId, start.OperationId,
                remoteMachine: start.IsLocal ? null : start.ClientMachine.Length > 0 ? start.ClientMachine : start.ClientMachineFqdn);
        else if (WmiProviderInfo.TryDecode(e, out var info, _strings))
            _tracker.WmiProviderInfo(info.GroupOperationId, info.HostId);
        else if (WmiOperationEnd.TryDecode(e, out var end))
            _tracker.WmiOperationEnd(e.TimeNs, end.OperationId);
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context) => new[] { _tracker.Build(context.LastEventNs) };

    private void OnKernelEvent(in EtwEvent e)
    {
        switch (e.Group)
        {
            case KernelGroups.Registry:
                // Only the operation and its thread matter here: the key name is not decoded.
                if (RegistryEvent.Matches(e)) _tracker.Registry(e.TimeNs, e.ThreadId, e.Opcode);
                break;
            case KernelGroups.Thread:
                if (ContextSwitch.TryDecode(e, out var cswitch)) _tracker.ContextSwitch(e.TimeNs, e.Cpu, cswitch.NewThreadId, cswitch.OldThreadId);
                break;
            case KernelGroups.FileIo:
                OnFileIoEvent(e);
                break;
            case KernelGroups.Process:
                if (!ProcessEvent.TryDecode(e, out var process, _strings)) break;
                if (process.IsStart) _tracker.ProcessStart(e.TimeNs, process.ProcessId, process.ImageFileName, process.CommandLine);
                else _tracker.ProcessEnd(e.TimeNs, process.ProcessId, process.ImageFileName, process.CommandLine);
                break;
            case KernelGroups.Image:
                // Load, unload and rundown alike: a process that ever mapped wevtsvc.dll hosts the service.
                if (ImageEvent.TryDecode(e, out var image, _strings)) _tracker.Image(e.TimeNs, image.ProcessId, image.FileName);
                break;
        }
    }

    private void OnFileIoEvent(in EtwEvent e)
    {
        if (e.Opcode == FileIoTypes.Read)
        {
            if (!FileIoReadWrite.TryDecode(e, out var read)) return;
            int thread = read.IssuingThreadId > 0 ? read.IssuingThreadId : e.ThreadId;
            _tracker.FileRead(e.TimeNs, thread, read.FileObject, read.FileKey, read.IoSize);
            return;
        }
        // Most names are not logs: make a string only for .evtx files.
        if (!FileIoName.TryRead(e, out ulong key, out var name)) return;
        if (name.EndsWith(".evtx", StringComparison.OrdinalIgnoreCase)) _tracker.FileName(key, _strings.Intern(name));
        else _tracker.NotALog(key);
    }

    private void OnRpcEvent(in EtwEvent e)
    {
        if (RpcCallStart.Matches(e))
        {
            // The fixed head (interface, opnum, protocol) is all the matching needs; the strings after it are skipped.
            var p = e.Payload;
            if (p.Length < 24) return;
            var side = e.EventId == RpcProvider.ServerCallStart ? RpcSide.Server : RpcSide.Client;
            _tracker.RpcCallStart(e.TimeNs, e.Cpu, e.ProcessId, e.ThreadId, side, PayloadReader.Guid(p, 0), (int)PayloadReader.U32(p, 16), (int)PayloadReader.U32(p, 20));
        }
        else if (RpcCallStop.TryDecode(e, out var stop))
        {
            _tracker.RpcCallStop(e.TimeNs, e.Cpu, e.ProcessId, e.ThreadId, stop.IsServer ? RpcSide.Server : RpcSide.Client);
        }
    }
}
