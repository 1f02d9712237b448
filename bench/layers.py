"""Where an area folder keeps a layer: NAME.geojson (a FeatureCollection) or NAME.geojsonseq (one
feature a line), as `overturemaps download` writes either."""
import os


def layer(folder, name):
    """The path of `name`.geojson or `name`.geojsonseq in `folder` (the first found), or None."""
    for ext in (".geojson", ".geojsonseq"):
        path = os.path.join(folder, name + ext)
        if os.path.exists(path):
            return path
    return None
