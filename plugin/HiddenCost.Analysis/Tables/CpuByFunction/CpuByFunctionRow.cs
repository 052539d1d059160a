namespace HiddenCost.Analysis.Tables.CpuByFunction;

/// <summary>One row of CPU by Function: the samples whose leaf frame is one function of one module in one process.</summary>
public sealed record CpuByFunctionRow(
    string Process, long? Pid, string Module, string Function, long Samples, double CpuMs, double SharePercent);
