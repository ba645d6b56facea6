<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: one list page, the page of a collection of kind "list" (the users of
  an album hierarchy, the albums of a user). It lists the nested collections, each a link to
  its first page: the title and subtitle on the left, the cover picture (when there is one)
  on the right. $page is the @id of the <page>; $root leads back to the output root.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="page" mode="body-class">list-page</xsl:template>

  <xsl:template match="page" mode="title">
    <xsl:for-each select="..">
      <xsl:call-template name="collection-name"/>
      <xsl:if test="parent::collection">
        <xsl:text> — </xsl:text>
        <xsl:value-of select="/gallery/title"/>
      </xsl:if>
    </xsl:for-each>
  </xsl:template>

  <xsl:template match="page" mode="bar">
    <xsl:call-template name="toolbar"/>
  </xsl:template>

  <xsl:template match="page" mode="main">
    <xsl:variable name="children" select="../collection"/>
    <div class="intro">
      <h1 dir="auto">
        <xsl:for-each select="..">
          <xsl:call-template name="collection-name"/>
        </xsl:for-each>
      </h1>
      <xsl:if test="normalize-space(../@subtitle) != ''">
        <p class="subtitle" dir="auto"><xsl:value-of select="normalize-space(../@subtitle)"/></p>
      </xsl:if>
      <p class="count">
        <xsl:call-template name="count-of">
          <xsl:with-param name="collection" select=".."/>
        </xsl:call-template>
      </p>
    </div>
    <xsl:choose>
      <xsl:when test="$children">
        <ul class="list">
          <xsl:apply-templates select="$children" mode="row"/>
        </ul>
      </xsl:when>
      <xsl:otherwise>
        <p class="empty">Nothing here.</p>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "10 albums" for a list of lists, "50 photos" for a list of albums. -->
  <xsl:template name="count-of">
    <xsl:param name="collection"/>
    <xsl:choose>
      <xsl:when test="$collection/@kind = 'list'">
        <xsl:variable name="n" select="count($collection/collection)"/>
        <xsl:value-of select="$n"/>
        <xsl:choose>
          <xsl:when test="$collection/collection[@kind = 'list']">
            <xsl:choose>
              <xsl:when test="$n = 1"> user</xsl:when>
              <xsl:otherwise> users</xsl:otherwise>
            </xsl:choose>
          </xsl:when>
          <xsl:otherwise>
            <xsl:choose>
              <xsl:when test="$n = 1"> album</xsl:when>
              <xsl:otherwise> albums</xsl:otherwise>
            </xsl:choose>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$collection/@item-count"/>
        <xsl:choose>
          <xsl:when test="$collection/@item-count = 1"> photo</xsl:when>
          <xsl:otherwise> photos</xsl:otherwise>
        </xsl:choose>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- One row: a link to the nested collection's first page. -->
  <xsl:template match="collection" mode="row">
    <li class="row" id="{@id}">
      <a class="row-link" href="{concat($root, page[1]/@href)}">
        <span class="row-text">
          <span class="row-title"><xsl:call-template name="collection-name"/></span>
          <xsl:if test="normalize-space(@subtitle) != ''">
            <span class="row-subtitle"><xsl:value-of select="normalize-space(@subtitle)"/></span>
          </xsl:if>
          <span class="row-count">
            <xsl:call-template name="count-of">
              <xsl:with-param name="collection" select="."/>
            </xsl:call-template>
          </span>
        </span>
        <xsl:if test="image[@role = 'cover']">
          <span class="row-thumb">
            <xsl:call-template name="image">
              <xsl:with-param name="role" select="'cover'"/>
              <xsl:with-param name="eager" select="position() &lt;= 8"/>
              <xsl:with-param name="decorative" select="true()"/>
            </xsl:call-template>
          </span>
        </xsl:if>
      </a>
    </li>
  </xsl:template>

</xsl:stylesheet>
