namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>What the security-driver catalogue knows about a kernel module. Product may be empty.</summary>
public sealed record CulpritIdentity(string Vendor, string Product, string Category);
