using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>A watched directory and when each process watched it.</summary>
internal sealed record DirectoryWatchCoverage(WatchedDirectory Directory, (ProcessRef Process, WatchCoverage Periods)[] Watchers);
