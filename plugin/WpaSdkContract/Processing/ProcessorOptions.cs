using System;
using System.Collections.Generic;
using System.Linq;

namespace Microsoft.Performance.SDK.Processing
{
    public class ProcessorOptions
    {
        public static readonly ProcessorOptions Default = new ProcessorOptions(Enumerable.Empty<string>());

        public ProcessorOptions(IEnumerable<string> arguments)
        {
            this.Arguments = (arguments ?? throw new ArgumentNullException(nameof(arguments))).ToList();
        }

        public IEnumerable<string> Arguments { get; }
    }
}
