"""An Executa plugin for Anna: its tools are in tools.py, its runtime in executa/."""
