window.MANCALA_SWEEP = { engine: "server" };
