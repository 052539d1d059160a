namespace HiddenCost.Dataset.Extract;

/// <summary>Where a run is: traces done (skipped included) of the total, failures so far, bytes read.</summary>
public readonly record struct ExtractProgress(int Done, int Total, int Failed, long BytesDone, long BytesTotal);
