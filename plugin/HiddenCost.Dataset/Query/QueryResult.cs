using HiddenCost.Dataset.Schema;

namespace HiddenCost.Dataset.Query;

/// <summary>A query's answer: column names and types, and rows of dataset-type values (long, double, string, bool, DateTime UTC).</summary>
/// <param name="Types">Each column's type; a type the dataset has no name for (a list, a UUID …) comes as text.</param>
public sealed record QueryResult(IReadOnlyList<string> Columns, IReadOnlyList<DatasetType> Types, IReadOnlyList<object?[]> Rows);
