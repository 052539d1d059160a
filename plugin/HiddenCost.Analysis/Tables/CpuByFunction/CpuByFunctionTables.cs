using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.CpuByFunction;

/// <summary>CPU by Function's spec (column names are a public contract, from issue 34).</summary>
public static class CpuByFunctionTables
{
    public static readonly TableDefinition<CpuByFunctionRow> Definition = new TableDefinitionBuilder<CpuByFunctionRow>(TableIds.CpuByFunction, "CPU by Function",
            "Sampled CPU per process, module and function: the leaf frame of every CPU sample, named from the CLR's method " +
            "events for managed code and from PDBs for native code when the symbol path has them, else module+0xRVA.", "HiddenCost/CPU")
        .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName)
        .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
        .Column("Module", ColumnType.Text, r => r.Module, description: "the image holding the sampled instruction; empty for JIT code and addresses no image covers")
        .Column("Function", ColumnType.Text, r => r.Function, description: "Namespace.Type.Method for managed code, the PDB public for native code with symbols, else module+0xRVA (0xADDRESS outside any image)")
        .Column("Samples", ColumnType.Integer, r => r.Samples, ColumnUnit.Count)
        .Column("CPU (ms)", ColumnType.Decimal, r => r.CpuMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue, "samples × the profile interval in effect when each was taken")
        .Column("Share (%)", ColumnType.Decimal, r => r.SharePercent, ColumnUnit.Percent,
            description: "the row's CPU ÷ the CPU of every sample in the trace (the Idle process included)", summary: ColumnSummary.Sum)
        .Build(new TableView(new[] { "Process", "Module", "Function" }, "CPU (ms)", new[] { "CPU (ms)" }));
}
