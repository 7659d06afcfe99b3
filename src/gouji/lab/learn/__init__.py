"""Training the learned bot (``gouji train``): Deep Monte-Carlo self-play, see :mod:`gouji.lab.learn.dmc`.

Needs the ``[train]`` extra (PyTorch, CPU build); playing the trained bot needs only numpy.
"""
