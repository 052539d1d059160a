using System;
using System.Collections.Generic;
using System.Linq;

namespace Microsoft.Performance.SDK.Processing
{
    public class ProcessorOptions
    {
        public static readonly ProcessorOptions Default = new ProcessorOptions(Enumerable.Empty<string>());

        public ProcessorOptions(IEnumerable<OptionInstance> options)
            : this(options, Enumerable.Empty<string>())
        {
        }

        public ProcessorOptions(IEnumerable<OptionInstance> options, IEnumerable<string> arguments)
        {
            this.Options = (options ?? throw new ArgumentNullException(nameof(options))).ToList();
            this.Arguments = (arguments ?? throw new ArgumentNullException(nameof(arguments))).ToList();
        }

        public ProcessorOptions(IEnumerable<string> arguments)
            : this(Enumerable.Empty<OptionInstance>(), arguments)
        {
        }

        /// <summary>The options the user set among those the processing source declares (<see cref="ProcessingSource.CommandLineOptions"/>).</summary>
        public IEnumerable<OptionInstance> Options { get; }

        public IEnumerable<string> Arguments { get; }
    }
}
