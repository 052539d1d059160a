using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Sums finished calls into rows of client process × on-behalf-of × log. The log is kept as a file key while
/// the trace is read (names often arrive only with the file rundown at the end) and named when the table is
/// built; keys that turn out to name the same log merge then.
/// </summary>
internal sealed class RenderCostRows
{
    private readonly Dictionary<RowKey, Sums> _rows = new();

    public void Add(ProcessRef? client, ProcessRef? onBehalfOf, string? wmiQuery, ulong logKey, Even6Call call, Even6Call? server, long firstNs, long lastNs)
    {
        var key = new RowKey(client, onBehalfOf, wmiQuery, logKey);
        if (!_rows.TryGetValue(key, out var s)) _rows[key] = s = new Sums();
        switch (call.Kind)
        {
            case Even6CallKind.Render:
                s.Renders++;
                if (server is not null) s.ServedRenders++;
                break;
            case Even6CallKind.QueryNext:
                s.Queries++;
                break;
        }
        if (server is not null)
        {
            s.ServedCalls++;
            s.CpuNs += server.CpuNs;
            s.RegistryOps += server.RegistryOps;
            if (server.Reads is { } reads)
                foreach (var (file, bytes) in reads)
                    s.Reads[file] = s.Reads.GetValueOrDefault(file) + bytes;
        }
        s.First = Math.Min(s.First, firstNs);
        s.Last = Math.Max(s.Last, lastNs);
    }

    /// <summary>Builds the table; <paramref name="fileName"/> names a file key (null when the trace never did).</summary>
    public Table Build(Func<ulong, string?> fileName, bool cpuKnown, bool registryKnown, bool readsKnown, out long unnamedBytes)
    {
        unnamedBytes = 0;
        var merged = new Dictionary<(ProcessRef? Client, ProcessRef? OnBehalfOf, string? Query, string Log), Sums>();
        foreach (var (key, s) in _rows)
        {
            var log = key.LogKey != 0 && fileName(key.LogKey) is { } path ? EvtxLogName.FromPath(path) : null;
            var mkey = (key.Client, key.OnBehalfOf, key.WmiQuery, log ?? "Unknown");
            if (!merged.TryGetValue(mkey, out var m)) merged[mkey] = m = new Sums();
            m.Merge(s);
        }

        var table = new Table(EventLogTables.RenderCost);
        var rows = new List<object?[]>();
        foreach (var ((client, onBehalfOf, query, log), s) in merged)
        {
            long evtxBytes = 0;
            foreach (var (file, bytes) in s.Reads)
            {
                var path = fileName(file);
                if (path is null) unnamedBytes += bytes;
                else if (EvtxLogName.IsEvtx(path)) evtxBytes += bytes;
            }
            bool served = s.ServedCalls > 0;
            double? cpuMs = served && cpuKnown ? s.CpuNs / 1e6 : null;
            long? registryOps = served && registryKnown ? s.RegistryOps : null;
            double? seconds = s.Last > s.First ? (s.Last - s.First) / 1e9 : null;
            rows.Add(new object?[]
            {
                client?.Name ?? "Unknown",
                client is null ? null : (long)client.Pid,
                onBehalfOf?.Name,
                onBehalfOf is null ? null : (long)onBehalfOf.Pid,
                log,
                s.Renders,
                s.Queries,
                cpuMs,
                s.ServedRenders > 0 ? cpuMs / s.ServedRenders : null,
                registryOps,
                s.ServedRenders > 0 ? (double?)registryOps / s.ServedRenders : null,
                served && readsKnown ? evtxBytes / EventLogTables.BytesPerMegabyte : null,
                seconds is > 0 && s.Renders > 0 ? s.Renders / seconds : null,
                query,
                s.First,
                s.Last,
            });
        }
        rows.Sort(static (a, b) =>
        {
            int c = Nullable.Compare((double?)b[7], (double?)a[7]);
            if (c == 0) c = ((long)b[5]!).CompareTo((long)a[5]!);
            if (c == 0) c = string.Compare((string)a[0]!, (string)b[0]!, StringComparison.OrdinalIgnoreCase);
            if (c == 0) c = Nullable.Compare((long?)a[1], (long?)b[1]);
            if (c == 0) c = string.Compare((string)a[4]!, (string)b[4]!, StringComparison.OrdinalIgnoreCase);
            if (c == 0) c = string.Compare((string?)a[2], (string?)b[2], StringComparison.OrdinalIgnoreCase);
            return c;
        });
        foreach (var r in rows) table.AddRow(r);
        return table;
    }

    private readonly record struct RowKey(ProcessRef? Client, ProcessRef? OnBehalfOf, string? WmiQuery, ulong LogKey);

    private sealed class Sums
    {
        public long Renders, ServedRenders, Queries, ServedCalls, CpuNs, RegistryOps;
        public long First = long.MaxValue, Last = long.MinValue;
        public readonly Dictionary<ulong, long> Reads = new();

        public void Merge(Sums o)
        {
            Renders += o.Renders;
            ServedRenders += o.ServedRenders;
            Queries += o.Queries;
            ServedCalls += o.ServedCalls;
            CpuNs += o.CpuNs;
            RegistryOps += o.RegistryOps;
            foreach (var (file, bytes) in o.Reads) Reads[file] = Reads.GetValueOrDefault(file) + bytes;
            First = Math.Min(First, o.First);
            Last = Math.Max(Last, o.Last);
        }
    }
}
