/* benchstore--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION benchstore UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2.  1.0 and 1.1 are released: benchstore--1.0.sql and
-- benchstore--1.0--1.1.sql never change again (test/released.sha256 holds
-- their checksums, checked by test/check-release.sh).  Every change to
-- the SQL surface after 1.1 goes into this script.
--
-- A fresh CREATE EXTENSION benchstore installs 1.0 and runs the 1.0--1.1
-- and 1.1--1.2 scripts in turn, so a fresh 1.2 and an updated 1.0 or 1.1
-- cannot differ; test/t/015_upgrade.pl compares them (functions,
-- signatures, comments, privileges, a DBA's own grants, tables, views)
-- and checks that recorded runs survive.
