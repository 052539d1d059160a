using System;
using System.Collections.Generic;
using System.Linq;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>One option as set for a processor: the declared option's id and its arguments.</summary>
    public sealed class OptionInstance
    {
        public OptionInstance(object optionId)
            : this(optionId, Enumerable.Empty<string>())
        {
        }

        public OptionInstance(object optionId, string argument)
            : this(optionId, new[] { argument })
        {
        }

        public OptionInstance(object optionId, IEnumerable<string> arguments)
        {
            this.Id = optionId ?? throw new ArgumentNullException(nameof(optionId));
            this.Arguments = (arguments ?? throw new ArgumentNullException(nameof(arguments))).ToList();
        }

        public object Id { get; }

        public IEnumerable<string> Arguments { get; }

        public override string ToString() => this.Id.ToString();
    }
}
