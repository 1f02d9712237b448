#!/usr/bin/env python3
"""The GIS-stack baseline for `make bench`: the job `flyr link` does, with GeoPandas
(pyogrio I/O): read the three files, a covers join, then for the rest the nearest footprint
within 50 m in a metric CRS, and the link table written as CSV.
Usage: geopandas_link.py BUILDINGS ADDRESSES SEGMENTS OUT.csv"""
import sys
import geopandas as gpd
import pandas as pd


def main(b_path, a_path, s_path, out):
    b = gpd.read_file(b_path, engine="pyogrio")
    a = gpd.read_file(a_path, engine="pyogrio")
    gpd.read_file(s_path, engine="pyogrio")  # read, as flyr does; plain nearest does not use it
    b = b[["id", "geometry"]].rename(columns={"id": "building_id"})
    a = a[["id", "geometry"]].rename(columns={"id": "address_id"})
    covered = gpd.sjoin(a, b, how="inner", predicate="covered_by")
    covered = covered.sort_values(["address_id", "building_id"]).drop_duplicates("address_id")
    rest = a[~a["address_id"].isin(covered["address_id"])]
    crs = a.estimate_utm_crs()
    near = gpd.sjoin_nearest(rest.to_crs(crs), b.to_crs(crs), how="left", max_distance=50, distance_col="distance_m")
    near = near.sort_values(["address_id", "distance_m"]).drop_duplicates("address_id")
    rows = pd.concat([
        pd.DataFrame({"address_id": covered["address_id"], "building_id": covered["building_id"], "method": "COVERS", "distance_m": 0.0}),
        pd.DataFrame({"address_id": near["address_id"], "building_id": near["building_id"],
                      "method": near["building_id"].notna().map({True: "NEAREST", False: "NONE"}), "distance_m": near["distance_m"]}),
    ]).sort_values("address_id")
    rows.to_csv(out, index=False, float_format="%.2f")


if __name__ == "__main__":
    main(*sys.argv[1:5])
