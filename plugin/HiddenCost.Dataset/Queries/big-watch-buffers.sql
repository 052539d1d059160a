-- title: Directory watchers with buffers of at least min_buffer_bytes, and the bytes the kernel zeroes for them per hour
-- param: min_buffer_bytes = 1048576
SELECT coalesce(t.machine_name, t.path) AS machine,
       b.process,
       b.directory,
       b.buffer_bytes,
       b.completions,
       b.bytes_zeroed,
       round(b.bytes_zeroed * 3.6e12 / nullif(b.watch_end_ns - b.first_arm_ns, 0)) AS bytes_zeroed_per_hour,
       b.recommended_buffer_bytes
FROM directory_notify_buffers AS b JOIN traces AS t USING (trace_id)
WHERE b.buffer_bytes >= $min_buffer_bytes
ORDER BY bytes_zeroed_per_hour DESC NULLS LAST, machine, b.process;
