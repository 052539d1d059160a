// Each class packs or publishes once (ClassInitialize) and its tests only read the result: they may run together.
[assembly: Parallelize(Scope = ExecutionScope.ClassLevel)]
