using System;
using System.Collections.Generic;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>The time span a processed data source covers, and the errors met while processing it.</summary>
    public sealed class DataSourceInfo
    {
        private static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        public static readonly DataSourceInfo Default = new DataSourceInfo(0, long.MaxValue, Epoch);

        public static readonly DataSourceInfo None = new DataSourceInfo(0, 0, Epoch);

        public DataSourceInfo(long firstEventTimestampNanoseconds, long lastEventTimestampNanoseconds, DateTime firstEventWallClockUtc)
        {
            if (firstEventTimestampNanoseconds < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(firstEventTimestampNanoseconds));
            }

            if (lastEventTimestampNanoseconds < firstEventTimestampNanoseconds)
            {
                throw new ArgumentOutOfRangeException(nameof(lastEventTimestampNanoseconds));
            }

            if (firstEventWallClockUtc.Kind != DateTimeKind.Utc)
            {
                throw new ArgumentException("The wall clock time must be UTC.", nameof(firstEventWallClockUtc));
            }

            this.FirstEventTimestampNanoseconds = firstEventTimestampNanoseconds;
            this.EndTimestampNanoseconds = lastEventTimestampNanoseconds;
            this.FirstEventWallClockUtc = firstEventWallClockUtc;
            this.Errors = new List<ErrorInfo>();
        }

        public long FirstEventTimestampNanoseconds { get; }

        public long EndTimestampNanoseconds { get; }

        public DateTime FirstEventWallClockUtc { get; }

        public IList<ErrorInfo> Errors { get; }
    }
}
