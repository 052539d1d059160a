-- title: Security drivers that add more than min_us µs per syscall: by driver and vendor, with the machines they slow
-- param: min_us = 1.0
-- A machine is its recorded computer name, else the trace's path (see traces.machine_name).
WITH hooked AS (
    SELECT t.trace_id, coalesce(t.machine_name, t.path) AS machine, h.culprit_module, h.vendor, h.product, h.category,
           h.hook_overhead_per_syscall_us, h.hook_cpu_ms, h.syscalls
    FROM syscall_hook_overhead AS h JOIN traces AS t USING (trace_id)
    WHERE coalesce(h.culprit_module, '') <> '' AND h.hook_overhead_per_syscall_us > $min_us
)
SELECT culprit_module AS driver,
       coalesce(vendor, '') AS vendor,
       coalesce(product, '') AS product,
       coalesce(category, '') AS category,
       count(DISTINCT machine) AS machines,
       count(DISTINCT trace_id) AS traces,
       round(max(hook_overhead_per_syscall_us), 3) AS max_us_per_syscall,
       round(sum(hook_cpu_ms), 3) AS hook_cpu_ms,
       CAST(sum(syscalls) AS BIGINT) AS syscalls,
       array_to_string(list_slice(list(DISTINCT machine ORDER BY machine), 1, 5), ', ') AS first_machines
FROM hooked
GROUP BY ALL
ORDER BY hook_cpu_ms DESC, driver;
