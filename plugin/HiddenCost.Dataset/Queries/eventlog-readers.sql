-- title: The top event-log readers by the CPU the EventLog service spends rendering for them, over every trace
-- param: top = 20
-- A WMI provider host reading for another process counts as that process (on_behalf_of).
SELECT coalesce(nullif(r.on_behalf_of, ''), r.process) AS reader,
       count(DISTINCT coalesce(t.machine_name, t.path)) AS machines,
       CAST(sum(r.renders) AS BIGINT) AS renders,
       round(sum(r.service_cpu_ms), 3) AS service_cpu_ms,
       round(sum(r.service_cpu_ms) / nullif(sum(r.renders), 0), 4) AS cpu_per_message_ms,
       round(sum(r.evtx_read_mb), 3) AS evtx_read_mb
FROM event_log_render_cost AS r JOIN traces AS t USING (trace_id)
GROUP BY reader
ORDER BY service_cpu_ms DESC NULLS LAST, reader
LIMIT $top;
