/* benchstore_cluster--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION benchstore_cluster UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2.  benchstore_cluster--1.0.sql and
-- benchstore_cluster--1.0--1.1.sql are released and never change again
-- (test/released.sha256); every change to the cluster's SQL surface after
-- 1.1 goes into this script.  A fresh CREATE EXTENSION benchstore_cluster
-- installs 1.0 and runs the 1.0--1.1 and 1.1--1.2 scripts in turn.
