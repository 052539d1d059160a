using System;
using System.Globalization;

namespace Microsoft.Performance.SDK
{
    /// <summary>A span of time in nanoseconds.</summary>
    public readonly struct TimestampDelta : IEquatable<TimestampDelta>, IComparable<TimestampDelta>
    {
        public TimestampDelta(long nanoseconds)
        {
            this.ToNanoseconds = nanoseconds;
        }

        public static TimestampDelta Zero => new TimestampDelta(0);

        public long ToNanoseconds { get; }

        public static TimestampDelta FromNanoseconds(long nanoseconds) => new TimestampDelta(nanoseconds);

        public static bool operator ==(TimestampDelta first, TimestampDelta second) => first.Equals(second);

        public static bool operator !=(TimestampDelta first, TimestampDelta second) => !first.Equals(second);

        public bool Equals(TimestampDelta other) => this.ToNanoseconds == other.ToNanoseconds;

        public override bool Equals(object other) => other is TimestampDelta delta && this.Equals(delta);

        public override int GetHashCode() => this.ToNanoseconds.GetHashCode();

        public int CompareTo(TimestampDelta other) => this.ToNanoseconds.CompareTo(other.ToNanoseconds);

        public override string ToString() => this.ToNanoseconds.ToString(CultureInfo.InvariantCulture) + "ns";
    }
}
