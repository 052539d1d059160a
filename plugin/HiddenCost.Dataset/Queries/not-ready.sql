-- title: Traces not ready for a table, and why: what is missing and the wpr line that records it; unreadable traces too
SELECT coalesce(t.machine_name, t.path) AS trace,
       r."table" AS for_table,
       r.missing,
       r.record_with
FROM trace_readiness AS r JOIN traces AS t USING (trace_id)
WHERE NOT r.ready
UNION ALL
SELECT coalesce(machine_name, path), '(every table)', status || ': ' || coalesce(message, ''), NULL
FROM traces
WHERE status IN ('refused', 'failed')
ORDER BY trace, for_table;
