-- title: The locks that waste the most spin CPU (spins that ended blocked anyway), over every trace
-- param: top = 20
SELECT coalesce(t.machine_name, t.path) AS machine,
       s.process,
       s.call_site,
       '0x' || hex(s.lock_id) AS lock_id,
       s.contentions,
       s.threads,
       round(s.wasted_spin_cpu_ms, 3) AS wasted_spin_cpu_ms,
       round(s.spin_cpu_ms, 3) AS spin_cpu_ms,
       round(s.wait_ms, 3) AS wait_ms,
       round(s.spin_share_pct, 1) AS spin_share_pct
FROM spin_wait_cost_per_lock AS s JOIN traces AS t USING (trace_id)
ORDER BY s.wasted_spin_cpu_ms DESC NULLS LAST, machine, s.process
LIMIT $top;
