"""SabberStone (github.com/HearthSim/SabberStone) as a second engine, through pythonnet.

The user supplies a built SabberStoneCore.dll; this package compiles a small C# bridge
(`Bridge.cs`) against it, loads both into the worker process once, and plays whole batches of
protocol games inside .NET (`engine.play_games`), returning the same GameRecords as the
built-in engine. Modules: `locate` (where the build is), `compiler` (the bridge, cached by
content hash), `runtime` (pythonnet, once per process), `protocol` (request and summary text),
`checks` (the startup check, one clear error line), `engine` (the worker-side adapter).
Imports `workers.protocol` and below.
"""


class SabberStoneSetupError(RuntimeError):
    """SabberStone cannot be used as configured; the message names what is missing."""
